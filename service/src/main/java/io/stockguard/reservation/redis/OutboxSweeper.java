package io.stockguard.reservation.redis;

import io.lettuce.core.ScanCursor;
import io.lettuce.core.StreamMessage;
import io.stockguard.journal.StockEvent;
import io.stockguard.platform.PeriodicWork;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.TaskScheduler;

/**
 * Settles what requests left behind in the SKUs' outboxes: changes made in the hot store whose
 * request died (or lost Redis) before it removed them. Entries younger than the minimum age still
 * belong to a running request and are left alone. Forwarding is idempotent by event id, so
 * several instances may sweep at once.
 */
final class OutboxSweeper extends PeriodicWork {

    private static final Logger log = LoggerFactory.getLogger(OutboxSweeper.class);

    private final RedisGateway redis;
    private final Consumer<List<StockEvent>> forward;
    private final RedisProperties.Outbox settings;
    private final Clock clock;

    /** @param forward makes events durable where they belong (applies them, or sends them on), idempotently */
    OutboxSweeper(RedisGateway redis, Consumer<List<StockEvent>> forward, RedisProperties.Outbox settings,
            TaskScheduler scheduler, Clock clock) {
        super(scheduler, settings.sweepInterval());
        this.redis = redis;
        this.forward = forward;
        this.settings = settings;
        this.clock = clock;
    }

    /** One sweep over every outbox; returns how many entries it settled. */
    int sweep() {
        Instant before = clock.instant().minus(settings.minimumAge());
        int settled = 0;
        ScanCursor cursor = null;
        do {
            RedisGateway.ScanPage page = redis.scanOutboxes(cursor, 100);
            for (String key : page.keys()) {
                SkuId sku = Keys.skuOfOutbox(key);
                if (sku != null) {
                    settled += settle(sku, before);
                }
            }
            cursor = page.next();
        } while (cursor != null);
        return settled;
    }

    /** Forwards the SKU's entries older than {@code before} (one page) and removes them. */
    private int settle(SkuId sku, Instant before) {
        String key = Keys.outbox(sku);
        List<StreamMessage<String, String>> entries = redis.outbox(key, settings.batchSize());
        List<StockEvent> events = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (StreamMessage<String, String> entry : entries) {
            StockEvent event = OutboxEvents.toEvent(entry.getBody());
            if (!event.occurredAt().isBefore(before)) {
                break;
            }
            events.add(event);
            ids.add(entry.getId());
        }
        if (events.isEmpty()) {
            return 0;
        }
        forward.accept(events);
        redis.deleteFromOutbox(key, ids);
        log.info("settled {} outbox entries of SKU {} left by requests that did not finish", events.size(), sku);
        return events.size();
    }

    private void sweepSafely() {
        try {
            sweep();
        } catch (RuntimeException e) {
            log.warn("outbox sweep failed; retrying in {}", settings.sweepInterval(), e);
        }
    }

    @Override
    protected void runOnce() {
        sweepSafely();
    }
}
