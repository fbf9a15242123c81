package io.stockguard.hotstore;

import io.stockguard.platform.PeriodicWork;
import io.stockguard.stock.OrderId;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.TaskScheduler;

/**
 * Give-ups Redis could not take when they were made. A reservation that failed half-way marks its
 * order's record given up, so the client's retry resumes it at once (order.lua GIVE_UP); when
 * Redis itself is what failed (the breaker open, the connection gone) the mark cannot be written,
 * and every retry heard "another request for this order is in progress" until the record went
 * stale, 30 s (measured in the chaos failover run). Those marks are kept here, bounded, and
 * written as soon as Redis takes them again; the mark names the request's fingerprint and attempt,
 * so it never touches a record another request made or took over since.
 */
final class PendingGiveUps extends PeriodicWork {

    private static final Logger log = LoggerFactory.getLogger(PendingGiveUps.class);
    private static final Duration INTERVAL = Duration.ofMillis(250);
    /** Marks kept at most; past it the oldest wait for their record to go stale instead. */
    private static final int PENDING_MAX = 10_000;
    /** Marks written per round. */
    private static final int PER_ROUND_MAX = 1_000;

    private record GiveUp(OrderId order, String fingerprint, Attempt attempt) {
    }

    private final HotOrders orders;
    private final Clock clock;
    private final BlockingQueue<GiveUp> pending = new ArrayBlockingQueue<>(PENDING_MAX);

    PendingGiveUps(HotOrders orders, Clock clock, TaskScheduler scheduler) {
        super(scheduler, INTERVAL);
        this.orders = orders;
        this.clock = clock;
    }

    /** Keeps a give-up Redis did not take, to write it once Redis is back. */
    void add(OrderId order, String fingerprint, Attempt attempt) {
        if (!pending.offer(new GiveUp(order, fingerprint, attempt))) {
            log.debug("order {} left to go stale: {} give-ups already wait for Redis", order, PENDING_MAX);
        }
    }

    @Override
    protected void runOnce() {
        for (int i = 0; i < PER_ROUND_MAX; i++) {
            GiveUp next = pending.peek();
            if (next == null) {
                return;
            }
            try {
                orders.giveUp(next.order(), next.fingerprint(), clock.instant(), next.attempt());
                pending.poll();
            } catch (RedisGateway.HotStoreUnavailable e) {
                return;
            } catch (RuntimeException e) {
                pending.poll();
                log.warn("the give-up of order {} could not be written; it goes stale instead", next.order(), e);
            }
        }
    }
}
