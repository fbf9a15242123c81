package io.stockguard.stocklevel;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.platform.Backoff;
import io.stockguard.platform.DutyLeases;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import tools.jackson.databind.json.JsonMapper;

/**
 * Hands each event to every sink (the webhooks, and in the full tier the public topic), at least
 * once: a delivery stays pending in the database until its sink takes it, and is tried again with a
 * doubling backoff until {@code give-up-after}. Every attempt carries the same event id
 * (subscribers deduplicate by it). One instance delivers at a time (the watcher's lease), on a
 * thread of its own, so a slow webhook delays only deliveries.
 */
final class EventDeliveries implements SmartLifecycle {

    /** The version of the JSON body; a change that breaks readers gets a new one. */
    static final String SCHEMA = "stockguard.stock-level/1";
    private static final Logger log = LoggerFactory.getLogger(EventDeliveries.class);
    /** Deliveries per round; more wait for the next round, a sample interval later. */
    private static final int PER_ROUND_MAX = 100;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final StockLevelStore store;
    private final DutyLeases duties;
    private final StockLevelProperties properties;
    /** The sinks configured at start: webhooks by property, and the topic. */
    private final Map<String, Sink> sinks = new LinkedHashMap<>();
    private final Subscriptions subscriptions;
    private final Function<Subscription, Sink> subscribed;
    /** The sink of each API subscription, made again when the subscription is (a new URL or secret). */
    private final Map<Subscription, Sink> subscribedSinks = new ConcurrentHashMap<>();
    private final Clock clock;
    private final MeterRegistry meters;
    private volatile ScheduledExecutorService sender;
    private final AtomicBoolean nudged = new AtomicBoolean();

    EventDeliveries(StockLevelStore store, DutyLeases duties, StockLevelProperties properties, List<Sink> sinks,
            Subscriptions subscriptions, Function<Subscription, Sink> subscribed, MeterRegistry meters, Clock clock) {
        this.store = store;
        this.duties = duties;
        this.properties = properties;
        this.subscriptions = subscriptions;
        this.subscribed = subscribed;
        sinks.forEach(sink -> this.sinks.put(sink.name(), sink));
        this.meters = meters;
        this.clock = clock;
    }

    /** The sinks each new event gets a delivery for: those configured, and the API's subscriptions now. */
    List<String> sinkNames() {
        List<String> names = new ArrayList<>(sinks.keySet());
        subscriptions.current().forEach(subscription -> names.add(subscription.name()));
        return names;
    }

    /** The sink of a delivery, or null when no sink of that name is configured or subscribed now. */
    private Sink sink(String name) {
        Sink configured = sinks.get(name);
        if (configured != null) {
            return configured;
        }
        List<Subscription> now = subscriptions.current();
        subscribedSinks.keySet().retainAll(now);
        return now.stream().filter(s -> s.name().equals(name)).findFirst()
                .map(s -> subscribedSinks.computeIfAbsent(s, subscribed)).orElse(null);
    }

    /**
     * Delivers what is due now rather than at the next round: the watcher has just reported an event,
     * and waiting for the round would add up to a sample interval to every event's latency. Nudges
     * that come while one is waiting count as one.
     */
    void nudge() {
        ScheduledExecutorService executor = sender;
        if (executor != null && nudged.compareAndSet(false, true)) {
            try {
                executor.execute(() -> {
                    nudged.set(false);
                    round();
                });
            } catch (RejectedExecutionException stopping) {
                nudged.set(false);
            }
        }
    }

    private void round() {
        try {
            deliverDue();
        } catch (RuntimeException e) {
            log.warn("stock-level deliveries not made this round: {}", e.toString());
        }
    }

    /** One round: every delivery due now, tried once. */
    void deliverDue() {
        if (!duties.hold(StockLevelWatcher.DUTY, StockLevelWatcher.leaseLength(properties))) {
            return;
        }
        for (StockLevelStore.Due delivery : store.due(clock.instant(), PER_ROUND_MAX)) {
            Sink sink = sink(delivery.webhook());
            String eventId = delivery.event().eventId();
            if (sink == null) {
                store.giveUp(eventId, delivery.webhook(), clock.instant(), "no sink of this name is configured now");
                continue;
            }
            String error = sink.deliver(delivery.event(), body(delivery.event()));
            Instant now = clock.instant();
            String outcome;
            if (error == null) {
                store.delivered(eventId, sink.name(), now);
                outcome = "delivered";
            } else if (!delivery.event().occurredAt().plus(properties.giveUpAfter()).isAfter(now)) {
                log.warn("stock-level event {} given up for {} after {} attempts: {}", eventId, sink.name(),
                        delivery.attempts() + 1, error);
                store.giveUp(eventId, sink.name(), now, error);
                outcome = "gave_up";
            } else {
                store.retryLater(eventId, sink.name(), now.plus(backoff(delivery.attempts() + 1)), error);
                outcome = "retried";
            }
            meters.counter("stockguard.stock_levels.deliveries", "sink", sink.name(), "outcome", outcome).increment();
        }
    }

    /**
     * The wait after the {@code attempts}-th failed attempt: doubling from retry-first, at most
     * retry-max, jittered ({@link Backoff}) so that a subscriber back from an outage is not called
     * for every waiting event at the same instant. Not Resilience4j's {@code Retry}: a delivery's
     * next attempt is a time stored with it, which any instance may take up after a restart, not a
     * wait inside one call.
     */
    Duration backoff(int attempts) {
        return new Backoff(properties.retryFirst(), properties.retryMax()).after(attempts);
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

    @Override
    public void start() {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "stockguard-stock-level-deliveries");
            thread.setDaemon(true);
            return thread;
        });
        long every = properties.sampleInterval().toMillis();
        executor.scheduleWithFixedDelay(this::round, every, every, TimeUnit.MILLISECONDS);
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
