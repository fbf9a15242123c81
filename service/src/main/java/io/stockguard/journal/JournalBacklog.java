package io.stockguard.journal;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/**
 * What a journal applied behind the answer holds that the database does not have yet, and the
 * degrade decision on it, with hysteresis: over {@code degradeAbove} new reservations are throttled
 * ({@link BacklogThrottle}), until it falls below {@code recoverBelow}. Each change is logged and
 * published ({@link JournalBacklogChanged}). One home for both Redis tiers' journals, which differ
 * only in how they measure the backlog.
 */
public final class JournalBacklog {

    private static final Logger log = LoggerFactory.getLogger(JournalBacklog.class);

    private final long degradeAbove;
    private final long recoverBelow;
    private final int reservationsPerSecond;
    private final ApplicationEventPublisher events;
    private final AtomicLong backlog = new AtomicLong();
    private final BacklogThrottle throttle;
    private volatile boolean backlogged;

    /** @param what what the backlog counts, for the gauge's description */
    public JournalBacklog(String what, long degradeAbove, long recoverBelow, int reservationsPerSecond,
            MeterRegistry meters, ApplicationEventPublisher events) {
        this.degradeAbove = degradeAbove;
        this.recoverBelow = recoverBelow;
        this.reservationsPerSecond = reservationsPerSecond;
        this.events = events;
        this.throttle = new BacklogThrottle(() -> backlogged, reservationsPerSecond, meters);
        Gauge.builder("stockguard.journal.backlog", backlog, AtomicLong::get)
                .description(what + " not yet applied to the database").register(meters);
        Gauge.builder("stockguard.journal.backlogged", () -> backlogged ? 1 : 0)
                .description("1 while new reservations are throttled because of the backlog").register(meters);
    }

    /** The backlog as just measured: kept for the gauge, and degrades or recovers. */
    public void measured(long lag) {
        backlog.set(lag);
        if (!backlogged && lag > degradeAbove) {
            backlogged = true;
            log.error("journal backlog {} is over {}: new reservations are throttled to {}/s per instance until it "
                    + "falls below {}", lag, degradeAbove, reservationsPerSecond, recoverBelow);
            events.publishEvent(new JournalBacklogChanged(true, lag, degradeAbove));
        } else if (backlogged && lag < recoverBelow) {
            backlogged = false;
            log.warn("journal backlog {} is below {}: reservations are no longer throttled", lag, recoverBelow);
            events.publishEvent(new JournalBacklogChanged(false, lag, recoverBelow));
        }
    }

    public long backlog() {
        return backlog.get();
    }

    public boolean backlogged() {
        return backlogged;
    }

    /** True when a new reservation may go ahead now (see {@link BacklogThrottle}). */
    public boolean admitReservation() {
        return throttle.admit();
    }
}
