package io.stockguard.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The waits between attempts: Retry-After as the service writes it, and the backoff without it. */
class RetryPolicyTest {

    private static final Instant NOW = Instant.parse("2015-10-21T07:27:30Z");

    @Test
    void retryAfterIsReadAsSecondsOrAsAnHttpDate() {
        assertThat(RetryAfter.parse("1", NOW)).contains(Duration.ofSeconds(1));
        assertThat(RetryAfter.parse(" 120 ", NOW)).contains(Duration.ofSeconds(120));
        assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:28:00 GMT", NOW)).contains(Duration.ofSeconds(30));
        assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:00:00 GMT", NOW)).as("a date past is now")
                .contains(Duration.ZERO);
        assertThat(RetryAfter.parse("99999999999999999999", NOW)).as("capped, not overflowed")
                .contains(Duration.ofDays(1));
        assertThat(RetryAfter.parse("soon", NOW)).isEmpty();
        assertThat(RetryAfter.parse("-5", NOW)).isEmpty();
        assertThat(RetryAfter.parse("", NOW)).isEmpty();
        assertThat(RetryAfter.parse(null, NOW)).isEmpty();
    }

    @Test
    void theBackoffDoublesWithJitterUpToItsCap() {
        RetryPolicy policy = new RetryPolicy(10, Duration.ofSeconds(30), Duration.ofMillis(100), Duration.ofMillis(1000));
        Random random = new Random(42);
        for (int round = 0; round < 1000; round++) {
            assertThat(policy.backoff(1, random).toMillis()).isBetween(50L, 100L);
            assertThat(policy.backoff(2, random).toMillis()).isBetween(100L, 200L);
            assertThat(policy.backoff(3, random).toMillis()).isBetween(200L, 400L);
            assertThat(policy.backoff(5, random).toMillis()).isBetween(500L, 1000L);
            assertThat(policy.backoff(60, random).toMillis()).isBetween(500L, 1000L);
        }
        long distinct = java.util.stream.IntStream.range(0, 100).mapToLong(i -> policy.backoff(4, random).toMillis())
                .distinct().count();
        assertThat(distinct).as("jittered, not one fixed wait").isGreaterThan(10);
    }

    @Test
    void everyBoundHasALimit() {
        assertThatThrownBy(() -> new RetryPolicy(0, Duration.ofSeconds(1), Duration.ofMillis(1), Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryPolicy(21, Duration.ofSeconds(1), Duration.ofMillis(1), Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryPolicy(3, Duration.ofHours(1), Duration.ofMillis(1), Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryPolicy(3, Duration.ZERO, Duration.ofMillis(1), Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryPolicy(3, Duration.ofSeconds(1), Duration.ofMillis(10), Duration.ofMillis(5)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
