package io.stockguard.client;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How long a call keeps trying for a definite answer. A call ends at whichever comes first:
 * {@code maxAttempts} requests, or {@code deadline} after it began (waits included; a wait that
 * would end past the deadline is not started). Between attempts it waits what the service's
 * {@code Retry-After} says or, without one, an exponential backoff from {@code firstBackoff}, capped
 * at {@code maxBackoff}, with jitter so that many clients failing together do not retry together.
 * Not Resilience4j's {@code Retry}: the client's one dependency is Jackson, so that it goes into an
 * order service without bringing its own resilience library beside the one the service may use,
 * and a wait here follows the service's {@code Retry-After} first.
 *
 * @param maxAttempts 1 (no retry) to {@value #ATTEMPTS_MAX}
 * @param deadline the whole call, every attempt and wait included; up to 10 minutes
 * @param firstBackoff the wait after a first failed attempt without Retry-After, at least 1 ms
 * @param maxBackoff the longest wait without Retry-After, at least {@code firstBackoff}
 */
public record RetryPolicy(int maxAttempts, Duration deadline, Duration firstBackoff, Duration maxBackoff) {

    static final int ATTEMPTS_MAX = 20;
    static final Duration DEADLINE_MAX = Duration.ofMinutes(10);

    /**
     * Five attempts within 10 s: rides out a store failover or an instance restart (the service
     * asks for 1 s after UNAVAILABLE) without keeping a customer's checkout waiting much longer.
     */
    public static final RetryPolicy DEFAULT = new RetryPolicy(5, Duration.ofSeconds(10), Duration.ofMillis(200),
            Duration.ofSeconds(2));

    /** One attempt: for callers that run their own retry loop (with the same order id). */
    public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ofSeconds(30), Duration.ofMillis(1),
            Duration.ofMillis(1));

    public RetryPolicy {
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(firstBackoff, "firstBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (maxAttempts < 1 || maxAttempts > ATTEMPTS_MAX) {
            throw new IllegalArgumentException("maxAttempts must be 1 to " + ATTEMPTS_MAX + ", was " + maxAttempts);
        }
        if (deadline.isNegative() || deadline.isZero() || deadline.compareTo(DEADLINE_MAX) > 0) {
            throw new IllegalArgumentException("deadline must be over 0 and at most " + DEADLINE_MAX + ", was "
                    + deadline);
        }
        if (firstBackoff.toMillis() < 1 || maxBackoff.compareTo(firstBackoff) < 0
                || maxBackoff.compareTo(DEADLINE_MAX) > 0) {
            throw new IllegalArgumentException("backoffs must satisfy 1 ms <= firstBackoff <= maxBackoff <= "
                    + DEADLINE_MAX + ", were " + firstBackoff + " and " + maxBackoff);
        }
    }

    /**
     * The wait after failed attempt number {@code attempt} (1-based) when the service named none:
     * the exponential step {@code firstBackoff * 2^(attempt-1)}, capped at {@code maxBackoff}, of
     * which a random half is dropped ("equal jitter": never zero, never more than the step).
     */
    Duration backoff(int attempt, RandomGenerator random) {
        long first = firstBackoff.toMillis();
        int doublings = Math.min(Math.max(attempt - 1, 0), 30);
        // first is at most 10 minutes (< 2^20 ms), so 30 doublings stay far below Long.MAX_VALUE.
        long step = Math.min(maxBackoff.toMillis(), first << doublings);
        long half = step / 2;
        return Duration.ofMillis(step - half + random.nextLong(half + 1));
    }
}
