package io.stockguard.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * Chooses the instant for a test whose subject is the wall clock's second (the post-mortem's idempotency
 * key of SKU + quantity + second): it starts right after a second begins, so that what it does
 * next has the rest of that second, instead of landing wherever the test happened to be.
 */
public final class WallClock {

    /** Enough tries to pass a few scheduler delays that overshoot the start of a second. */
    private static final int SECONDS_TRIED_MAX = 10;

    private WallClock() {
    }

    /**
     * Waits until at least {@code left} of the current second remains, which is at once or at the
     * next second; this is a wait for a clock condition, not for other work. Fails if the thread
     * woke too late {@value #SECONDS_TRIED_MAX} seconds running (a machine that busy cannot hold
     * {@code left} anyway).
     */
    public static void awaitSecondWithAtLeast(Duration left) {
        if (left.isNegative() || left.compareTo(Duration.ofMillis(950)) > 0) {
            throw new IllegalArgumentException("between 0 and 950 ms of a second can be chosen, not " + left);
        }
        for (int tried = 0; tried < SECONDS_TRIED_MAX; tried++) {
            long intoSecondNanos = Instant.now().getNano();
            long leftNanos = 1_000_000_000L - intoSecondNanos;
            if (leftNanos >= left.toNanos()) {
                return;
            }
            // Until the next second starts (plus a millisecond, as the clock's tick may lag).
            LockSupport.parkNanos(leftNanos + 1_000_000);
        }
        throw new IllegalStateException("woke too late in the second " + SECONDS_TRIED_MAX
                + " times running: the machine is too busy to start anything " + left + " before a second ends");
    }
}
