package io.stockguard.journal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The Redis tiers' declared degradation: while the journal's backlog is over its threshold, this
 * instance admits at most {@code perSecond} new reservations a second (a token bucket holding one
 * second's worth) and refuses the rest with "throttled, retry after a second", so the database
 * writer can catch up instead of falling further behind. Settlements are never throttled: they
 * return stock.
 */
public final class BacklogThrottle {

    private final java.util.function.BooleanSupplier backlogged;
    private final double perSecond;
    private final Counter refused;
    private double tokens;
    private long refilledAt = System.nanoTime();

    public BacklogThrottle(java.util.function.BooleanSupplier backlogged, int perSecond, MeterRegistry meters) {
        this.backlogged = backlogged;
        this.perSecond = perSecond;
        this.tokens = perSecond;
        this.refused = Counter.builder("stockguard.journal.backlog.throttled")
                .description("reservations refused because the journal's backlog is over its threshold")
                .register(meters);
    }

    /** True when a new reservation may go ahead now. */
    public boolean admit() {
        if (!backlogged.getAsBoolean()) {
            return true;
        }
        synchronized (this) {
            long now = System.nanoTime();
            tokens = Math.min(perSecond, tokens + (now - refilledAt) / 1e9 * perSecond);
            refilledAt = now;
            if (tokens >= 1) {
                tokens -= 1;
                return true;
            }
        }
        refused.increment();
        return false;
    }
}
