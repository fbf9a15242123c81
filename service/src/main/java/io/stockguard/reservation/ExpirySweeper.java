package io.stockguard.reservation;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.stock.OrderId;

/**
 * Returns the stock of reservations whose TTL has passed, in bounded batches on a fixed delay.
 * Several instances may sweep at once: expiring is a conditional state change, so each order is
 * expired exactly once whoever gets there first.
 */
@Component
class ExpirySweeper implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ExpirySweeper.class);

    private final StockLedger ledger;
    private final ReservationProperties properties;
    private final TaskScheduler scheduler;
    private final Clock clock;
    private final Counter expired;
    private volatile ScheduledFuture<?> task;

    ExpirySweeper(StockLedger ledger, ReservationProperties properties, TaskScheduler scheduler, Clock clock,
            MeterRegistry meters) {
        this.ledger = ledger;
        this.properties = properties;
        this.scheduler = scheduler;
        this.clock = clock;
        this.expired = meters.counter("stockguard.reservations.expired");
    }

    /** One sweep; returns how many reservations it expired. */
    int sweep() {
        Instant now = clock.instant();
        List<OrderId> due = ledger.dueForExpiry(now, properties.expiryBatchSize());
        int count = 0;
        for (OrderId orderId : due) {
            if (ledger.expire(orderId, now)) {
                count++;
            }
        }
        expired.increment(count);
        return count;
    }

    private void sweepSafely() {
        try {
            int count = sweep();
            if (count > 0) {
                log.debug("expired {} reservations", count);
            }
        } catch (RuntimeException e) {
            log.warn("expiry sweep failed; retrying in {}", properties.expirySweepInterval(), e);
        }
    }

    @Override
    public void start() {
        task = scheduler.scheduleWithFixedDelay(this::sweepSafely, properties.expirySweepInterval());
    }

    @Override
    public void stop() {
        ScheduledFuture<?> current = task;
        if (current != null) {
            current.cancel(false);
        }
        task = null;
    }

    @Override
    public boolean isRunning() {
        return task != null;
    }
}
