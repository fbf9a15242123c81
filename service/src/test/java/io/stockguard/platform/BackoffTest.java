package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The waits between attempts: doubling, capped, and spread so that callers failing together part. */
class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2));

    @Test
    void eachWaitIsWithinHalfOfItsDoublingStepEitherWayAndNeverPastTheMax() {
        for (int failures = 1; failures <= 12; failures++) {
            long step = Math.min(100L << (failures - 1), 2_000);
            for (int draw = 0; draw < 200; draw++) {
                long wait = backoff.after(failures).toMillis();
                assertThat(wait).as("wait after %d failures", failures).isBetween(step / 2, Math.min(step * 3 / 2, 2_000));
            }
        }
    }

    @Test
    void callersFailingTogetherDoNotAllWaitTheSame() {
        Set<Long> waits = new HashSet<>();
        for (int caller = 0; caller < 100; caller++) {
            waits.add(backoff.after(3).toMillis());
        }
        assertThat(waits).as("distinct waits of 100 callers after their third failure").hasSizeGreaterThan(20);
    }

    @Test
    void aZeroFirstStepMeansNoWaitAndRetryTakesTheSameWaits() {
        assertThat(new Backoff(Duration.ZERO, Duration.ofSeconds(1)).after(5)).isZero();
        assertThat(backoff.intervals().apply(30)).isLessThanOrEqualTo(2_000L);
        assertThat(backoff.after(0)).as("no failure yet counts as the first").isLessThanOrEqualTo(Duration.ofMillis(150));
    }

    @Test
    void aBackoffThatCannotBeIsRefused() {
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("first <= max");
        assertThatThrownBy(() -> new Backoff(Duration.ofMillis(-1), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
