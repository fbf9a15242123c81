package io.stockguard.bench.stockguard;

import java.util.Locale;

/** How a StockGuard contender's sessions reach its service: chosen when the contender is made. */
public enum Transport {

    /** Calls {@code Reservations} in this JVM, as the HTTP controller does: the service without HTTP. */
    IN_PROCESS("in process"),
    /** HTTP/1.1 through {@link LeanHttp}: one keep-alive socket per session, answers parsed by hand. */
    LEAN_HTTP("over HTTP/1.1 with the bench's lean client (one keep-alive socket per session)"),
    /** HTTP/1.1 through {@link io.stockguard.client.StockGuardClient}: what an order service using our client gets. */
    CLIENT("over HTTP/1.1 with the StockGuard Java client (JDK HttpClient underneath, one per session)");

    private final String phrase;

    Transport(String phrase) {
        this.phrase = phrase;
    }

    /** The HTTP transport of {@code --http-client}: {@code lean} or {@code client}. */
    public static Transport http(String client) {
        return switch (client.toLowerCase(Locale.ROOT)) {
            case "lean" -> LEAN_HTTP;
            case "client" -> CLIENT;
            default -> throw new IllegalArgumentException("--http-client is lean or client, not " + client);
        };
    }

    /** For descriptions: "in process", "over HTTP/1.1 with …". */
    public String phrase() {
        return phrase;
    }
}
