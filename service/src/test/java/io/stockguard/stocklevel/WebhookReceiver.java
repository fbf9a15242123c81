package io.stockguard.stocklevel;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real HTTP receiver for the webhooks: it checks every delivery's signature with the secret, keeps
 * what it was sent, and can be told to answer 500 to the next deliveries after reading them.
 */
final class WebhookReceiver implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One delivery as received. */
    record Delivery(String eventIdHeader, JsonNode body, boolean signed, String traceparent) {

        String type() {
            return body.get("type").asString();
        }

        String skuId() {
            return body.get("skuId").asString();
        }

        String eventId() {
            return body.get("eventId").asString();
        }
    }

    private final HttpServer server;
    private final String secret;
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final AtomicInteger failNext = new AtomicInteger();

    private WebhookReceiver(int port, String secret) throws IOException {
        this.secret = secret;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/hooks/stock", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                String signature = exchange.getRequestHeaders().getFirst("X-StockGuard-Signature");
                deliveries.add(new Delivery(exchange.getRequestHeaders().getFirst("X-StockGuard-Event-Id"),
                        JSON.readTree(body), verify(signature, body), exchange.getRequestHeaders().getFirst("traceparent")));
                int status = failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? 500 : 204;
                exchange.sendResponseHeaders(status, -1);
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    static WebhookReceiver start(int port, String secret) {
        try {
            return new WebhookReceiver(port, secret);
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen on " + port, e);
        }
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/stock";
    }

    static String url(int port) {
        return "http://127.0.0.1:" + port + "/hooks/stock";
    }

    /** The next {@code count} deliveries are read, then answered 500. */
    void failNext(int count) {
        failNext.set(count);
    }

    List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    /** Each event once (deliveries repeat on retries), in the order first received, for one SKU. */
    List<String> typesOf(String sku) {
        List<String> seen = new java.util.ArrayList<>();
        List<String> types = new java.util.ArrayList<>();
        for (Delivery delivery : deliveries) {
            if (delivery.skuId().equals(sku) && !seen.contains(delivery.eventId())) {
                seen.add(delivery.eventId());
                types.add(delivery.type());
            }
        }
        return types;
    }

    private boolean verify(String header, String body) {
        if (header == null || !header.startsWith("t=")) {
            return false;
        }
        // Checked as a subscriber would, from the documented scheme, not with the service's code.
        String timestamp = header.substring(2, header.indexOf(','));
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            String expected = java.util.HexFormat.of().formatHex(
                    mac.doFinal((timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
            return header.equals("t=" + timestamp + ",v1=" + expected);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    void assertAllSigned() {
        assertThat(deliveries).allSatisfy(d -> {
            assertThat(d.signed()).as("signature of %s", d.body()).isTrue();
            assertThat(d.eventIdHeader()).isEqualTo(d.eventId());
            assertThat(d.body().get("schema").asString()).isEqualTo("stockguard.stock-level/1");
        });
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
