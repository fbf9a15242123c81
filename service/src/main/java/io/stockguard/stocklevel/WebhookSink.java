package io.stockguard.stocklevel;

import io.stockguard.platform.TraceId;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** A subscriber's URL: a signed POST of the event, taken when it answers 2xx. */
final class WebhookSink implements Sink {

    static final String SIGNATURE_HEADER = "X-StockGuard-Signature";
    static final String EVENT_ID_HEADER = "X-StockGuard-Event-Id";

    private final StockLevelProperties.Webhook webhook;
    private final HttpClient http;
    private final Duration timeout;
    private final Clock clock;

    WebhookSink(StockLevelProperties.Webhook webhook, HttpClient http, Duration timeout, Clock clock) {
        this.webhook = webhook;
        this.http = http;
        this.timeout = timeout;
        this.clock = clock;
    }

    @Override
    public String name() {
        return webhook.name();
    }

    @Override
    public String deliver(StockLevelEvent event, String body) {
        long timestamp = clock.instant().getEpochSecond();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(webhook.url()))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header(EVENT_ID_HEADER, event.eventId())
                .header(SIGNATURE_HEADER, signature(webhook.secret(), timestamp, body))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        // The trace of the stock change behind the event: the receiver's work joins the order's trace.
        TraceId trace = TraceId.parse(event.traceId());
        if (trace != null) {
            request.header("traceparent", trace.traceparent());
        }
        try {
            int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            return status / 100 == 2 ? null : "answered " + status;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (java.io.IOException | RuntimeException e) {
            return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
    }

    /**
     * {@code t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">}: the timestamp is signed with
     * the body, so a receiver can refuse a delivery replayed long after it was made.
     */
    static String signature(String secret, long timestamp, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] digest = mac.doFinal((timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
            return "t=" + timestamp + ",v1=" + HexFormat.of().formatHex(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
