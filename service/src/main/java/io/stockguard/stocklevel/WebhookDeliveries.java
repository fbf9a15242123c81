package io.stockguard.stocklevel;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.platform.DutyLeases;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends each event to every webhook, at least once: a delivery stays pending in the database until
 * a webhook answers 2xx, and is tried again with a doubling backoff until {@code give-up-after}.
 * Each delivery carries the event's id (the same on every attempt: subscribers deduplicate by it)
 * and an HMAC-SHA256 signature over its timestamp and body. One instance delivers at a time (the
 * watcher's lease), on a thread of its own, so a slow webhook delays only deliveries.
 */
final class WebhookDeliveries implements SmartLifecycle {

    /** The version of the JSON body; a change that breaks readers gets a new one. */
    static final String SCHEMA = "stockguard.stock-level/1";
    static final String SIGNATURE_HEADER = "X-StockGuard-Signature";
    static final String EVENT_ID_HEADER = "X-StockGuard-Event-Id";
    private static final Logger log = LoggerFactory.getLogger(WebhookDeliveries.class);
    /** Deliveries per round; more wait for the next round, a sample interval later. */
    private static final int PER_ROUND_MAX = 100;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final StockLevelStore store;
    private final DutyLeases duties;
    private final StockLevelProperties properties;
    private final Map<String, StockLevelProperties.Webhook> webhooks = new LinkedHashMap<>();
    private final Clock clock;
    private final MeterRegistry meters;
    private final HttpClient http;
    private volatile ScheduledExecutorService sender;

    WebhookDeliveries(StockLevelStore store, DutyLeases duties, StockLevelProperties properties, MeterRegistry meters,
            Clock clock) {
        this.store = store;
        this.duties = duties;
        this.properties = properties;
        properties.webhooks().forEach(webhook -> webhooks.put(webhook.name(), webhook));
        this.meters = meters;
        this.clock = clock;
        this.http = HttpClient.newBuilder().connectTimeout(properties.timeout())
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** One round: every delivery due now, tried once. */
    void deliverDue() {
        if (webhooks.isEmpty() || !duties.hold(StockLevelWatcher.DUTY, Duration.ofSeconds(10)
                .plus(properties.sampleInterval().multipliedBy(4)))) {
            return;
        }
        List<StockLevelStore.Due> due = store.due(clock.instant(), PER_ROUND_MAX);
        for (StockLevelStore.Due delivery : due) {
            StockLevelProperties.Webhook webhook = webhooks.get(delivery.webhook());
            Instant now = clock.instant();
            if (webhook == null) {
                store.giveUp(delivery.event().eventId(), delivery.webhook(), now, "no webhook of this name is configured");
                continue;
            }
            String error = send(webhook, delivery.event());
            if (error == null) {
                store.delivered(delivery.event().eventId(), webhook.name(), clock.instant());
                meters.counter("stockguard.stock_levels.deliveries", "webhook", webhook.name(), "outcome", "delivered")
                        .increment();
            } else if (!delivery.event().occurredAt().plus(properties.giveUpAfter()).isAfter(now)) {
                log.warn("stock-level event {} given up for webhook {} after {} attempts: {}",
                        delivery.event().eventId(), webhook.name(), delivery.attempts() + 1, error);
                store.giveUp(delivery.event().eventId(), webhook.name(), now, error);
                meters.counter("stockguard.stock_levels.deliveries", "webhook", webhook.name(), "outcome", "gave_up")
                        .increment();
            } else {
                store.retryLater(delivery.event().eventId(), webhook.name(), now.plus(backoff(delivery.attempts() + 1)),
                        error);
                meters.counter("stockguard.stock_levels.deliveries", "webhook", webhook.name(), "outcome", "retried")
                        .increment();
            }
        }
    }

    /** The wait after the {@code attempts}-th failed attempt: doubling from retry-first, at most retry-max. */
    Duration backoff(int attempts) {
        Duration wait = properties.retryFirst();
        for (int i = 1; i < attempts && wait.compareTo(properties.retryMax()) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(properties.retryMax()) > 0 ? properties.retryMax() : wait;
    }

    /** Null when the webhook took it, or why not. */
    private String send(StockLevelProperties.Webhook webhook, StockLevelEvent event) {
        String body = body(event);
        long timestamp = clock.instant().getEpochSecond();
        HttpRequest request = HttpRequest.newBuilder(URI.create(webhook.url()))
                .timeout(properties.timeout())
                .header("Content-Type", "application/json")
                .header(EVENT_ID_HEADER, event.eventId())
                .header(SIGNATURE_HEADER, signature(webhook.secret(), timestamp, body))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build();
        try {
            int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            return status / 100 == 2 ? null : "answered " + status;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (java.io.IOException | RuntimeException e) {
            return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
    }

    /** The event as subscribers read it (schema {@value #SCHEMA}). */
    static String body(StockLevelEvent event) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("schema", SCHEMA);
        body.put("eventId", event.eventId());
        body.put("type", event.change().name());
        body.put("skuId", event.skuId().value());
        body.put("available", event.available());
        body.put("total", event.total());
        body.put("occurredAt", event.occurredAt().toString());
        body.put("traceId", event.traceId());
        return JSON.writeValueAsString(body);
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

    @Override
    public void start() {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "stockguard-stock-level-webhooks");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(() -> {
            try {
                deliverDue();
            } catch (RuntimeException e) {
                log.warn("stock-level deliveries not made this round: {}", e.toString());
            }
        }, properties.sampleInterval().toMillis(), properties.sampleInterval().toMillis(), TimeUnit.MILLISECONDS);
        sender = executor;
    }

    @Override
    public void stop() {
        ScheduledExecutorService executor = sender;
        if (executor != null) {
            executor.shutdownNow();
        }
        sender = null;
    }

    @Override
    public boolean isRunning() {
        return sender != null;
    }
}
