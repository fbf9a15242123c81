package io.stockguard.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link JournalProgress#await}: the one wait every journal's callers go through. */
class JournalProgressWaitTest {

    private static final Duration POLL = Duration.ofMillis(1);

    @Test
    void aJournalThatStillCannotTellAtTheDeadlineAnswersFalseNotAFailure() {
        AtomicInteger asked = new AtomicInteger();
        boolean applied = JournalProgress.await(Duration.ofMillis(50), POLL, () -> {
            asked.incrementAndGet();
            throw new IllegalStateException("Kafka did not tell its offsets");
        }, mark -> true);

        assertThat(applied).isFalse();
        assertThat(asked.get()).as("asked again until the deadline").isGreaterThan(1);
    }

    @Test
    void aJournalThatCannotTellForAMomentIsAskedAgainAndTheMarkIsTakenOnce() {
        AtomicInteger marks = new AtomicInteger();
        AtomicInteger checks = new AtomicInteger();
        boolean applied = JournalProgress.await(Duration.ofSeconds(30), POLL, () -> {
            marks.incrementAndGet();
            return 7L;
        }, mark -> {
            if (checks.incrementAndGet() < 3) {
                throw new IllegalStateException("the coordinator is loading");
            }
            return mark == 7L && checks.get() >= 5;
        });

        assertThat(applied).isTrue();
        assertThat(marks.get()).as("the mark of what was journaled when the wait began").isEqualTo(1);
        assertThat(checks.get()).isEqualTo(5);
    }

    @Test
    void aJournalThatStaysBehindAnswersFalseOnceTheDeadlinePassed() {
        long started = System.nanoTime();
        boolean applied = JournalProgress.await(Duration.ofMillis(30), POLL, () -> 1L, mark -> false);

        assertThat(applied).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(30));
    }
}
