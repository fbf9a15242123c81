package io.stockguard.platform;

import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;

/**
 * The wait between attempts at something that failed: doubling from {@code first}, never more than
 * {@code max}, each wait drawn at random between half and one and a half times its step (capped at
 * {@code max}), so that many callers failing at once (every instance when Redis or a webhook comes
 * back) do not all try again at once. The draw is Resilience4j's exponential random backoff, the
 * same function its {@code Retry} takes ({@link #intervals()}).
 *
 * @param first the step before the second attempt; zero for no wait at all
 * @param max the longest wait, at least {@code first}
 */
public record Backoff(Duration first, Duration max) {

    private static final double MULTIPLIER = 2.0;
    /** How far a wait may stray from its step, either way, as a share of it. */
    private static final double JITTER = 0.5;

    public Backoff {
        if (first == null || max == null || first.isNegative() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException("a backoff needs 0 <= first <= max, was " + first + " and " + max);
        }
    }

    /** The wait after the {@code failures}-th failure in a row (1 for the first). */
    public Duration after(int failures) {
        return Duration.ofMillis(intervals().apply(Math.max(1, failures)));
    }

    /** The same waits as Resilience4j's {@code Retry} takes them, in milliseconds by attempt. */
    public IntervalFunction intervals() {
        if (first.toMillis() < 1) {
            return attempt -> 0L;
        }
        IntervalFunction drawn = IntervalFunction.ofExponentialRandomBackoff(first, MULTIPLIER, JITTER, max);
        long maxMillis = max.toMillis();
        return attempt -> Math.min(drawn.apply(attempt), maxMillis);
    }
}
