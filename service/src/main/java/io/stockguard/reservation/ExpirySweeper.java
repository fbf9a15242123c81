package io.stockguard.reservation;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.platform.PeriodicWork;
import io.stockguard.stock.OrderId;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;

/**
 * Returns the stock of reservations whose TTL has passed, in bounded batches on a fixed delay.
 * Several instances may sweep at once: expiring is a conditional state change, so each order is
 * expired exactly once whoever gets there first.
 */
@Component
class ExpirySweeper extends PeriodicWork {

    private static final Logger log = LoggerFactory.getLogger(ExpirySweeper.class);

    private final StockLedger ledger;
    private final ReservationProperties properties;
    private final Clock clock;
    private final Counter expired;
    /** Where the next sweep goes on from; null for the first page. One sweep runs at a time. */
    private volatile StockLedger.Due cursor;

    ExpirySweeper(StockLedger ledger, ReservationProperties properties, TaskScheduler scheduler, Clock clock,
            MeterRegistry meters) {
        super(scheduler, properties.expirySweepInterval());
        this.ledger = ledger;
        this.properties = properties;
        this.clock = clock;
        this.expired = meters.counter("stockguard.reservations.expired");
    }

    /**
     * One sweep of one page; returns how many reservations it expired. The next sweep goes on after
     * this page, and starts over once a page comes back short: a reservation that cannot be expired
     * now (its order is being changed) is passed by, not tried again ahead of all the others.
     */
    int sweep() {
        Instant now = clock.instant();
        List<StockLedger.Due> due = ledger.dueForExpiry(now, cursor, properties.expiryBatchSize());
        int count = 0;
        for (StockLedger.Due reservation : due) {
            if (ledger.expire(reservation.orderId(), now)) {
                count++;
            }
        }
        cursor = due.size() < properties.expiryBatchSize() ? null : due.getLast();
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
    protected void runOnce() {
        sweepSafely();
    }
}
