package io.stockguard.testing;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Waits for work whose speed depends on how busy the machine is (a journal draining, a hot store
 * being rebuilt, a preheat loading) for as long as the work keeps moving. A fixed budget such as
 * "within 30 s" fails a correct service on a machine that runs two builds at once; a wait that
 * gives up only when the work has stopped moving fails only a service that stopped working.
 */
public final class Progress {

    /** How often the condition and the measure are read. */
    private static final Duration POLL = Duration.ofMillis(100);
    /** A bound on any one wait even while it moves: a limit on everything, far above any real run. */
    private static final Duration WAIT_MAX = Duration.ofMinutes(10);

    private Progress() {
    }

    /**
     * Waits until {@code remaining} reads 0 or less, such as a backlog draining; fails when it has
     * not reached a new low for {@code stallMax}.
     */
    public static void awaitZero(String what, LongSupplier remaining, Duration stallMax) {
        await(() -> what, () -> remaining.getAsLong() <= 0, remaining, true, stallMax);
    }

    /**
     * Waits until {@code done}, for as long as {@code remaining} keeps reaching new lows (work
     * left: events not yet applied, SKUs not yet loaded); fails when it has not for {@code stallMax}.
     */
    public static void awaitWhileShrinking(String what, BooleanSupplier done, LongSupplier remaining,
            Duration stallMax) {
        await(() -> what, done, remaining, true, stallMax);
    }

    /**
     * Waits until {@code done}, for as long as {@code count} keeps reaching new highs (work done:
     * answers received, units loaded); fails when it has not for {@code stallMax}.
     */
    public static void awaitWhileGrowing(String what, BooleanSupplier done, LongSupplier count, Duration stallMax) {
        await(() -> what, done, count, false, stallMax);
    }

    /** One try at something, and what it saw (an answer, a state) in words. */
    public record Attempt(boolean done, String seen) {
    }

    /**
     * Tries until an attempt is done, for as long as the attempts keep seeing something they had
     * not seen before (a service moving through the stages of its warm-up); fails when they have
     * seen nothing new for {@code stallMax}, naming what they saw last.
     */
    public static void awaitWhileChanging(String what, Supplier<Attempt> attempt, Duration stallMax) {
        Set<String> seen = new LinkedHashSet<>();
        String[] last = {null};
        await(() -> what + "; " + seen.size() + " different outcomes seen, the last: " + last[0], () -> {
            Attempt tried = attempt.get();
            seen.add(tried.seen());
            last[0] = tried.seen();
            return tried.done();
        }, seen::size, false, stallMax);
    }

    /**
     * The one loop: a reading that throws (a server failing over for a moment) counts as no
     * progress, and its error is the failure's cause if the wait gives up.
     */
    private static void await(Supplier<String> what, BooleanSupplier done, LongSupplier measure,
            boolean lowerIsProgress, Duration stallMax) {
        long started = System.nanoTime();
        long progressedAt = started;
        Long best = null;
        RuntimeException lastError = null;
        while (true) {
            try {
                if (done.getAsBoolean()) {
                    return;
                }
                long value = measure.getAsLong();
                if (best == null || (lowerIsProgress ? value < best : value > best)) {
                    best = value;
                    progressedAt = System.nanoTime();
                }
                lastError = null;
            } catch (RuntimeException e) {
                lastError = e;
            }
            long now = System.nanoTime();
            boolean stalled = now - progressedAt > stallMax.toNanos();
            if (stalled || now - started > WAIT_MAX.toNanos()) {
                AssertionError failure = new AssertionError(what.get() + ": " + (stalled ? "no progress for " + stallMax
                        : "still moving after " + WAIT_MAX) + " (best reading " + best + ", waited "
                        + Duration.ofNanos(now - started).toMillis() + " ms)");
                if (lastError != null) {
                    failure.initCause(lastError);
                }
                throw failure;
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
    }
}
