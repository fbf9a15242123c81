package io.stockguard.guard;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.stockguard.stock.SkuMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;

class SkuModeGaugesTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final AtomicLong clock = new AtomicLong();
    private final AtomicInteger reads = new AtomicInteger();
    private final List<Object> answers = new ArrayList<>();
    private final SkuModeStore store = Mockito.mock(SkuModeStore.class);

    SkuModeGaugesTest() {
        Mockito.when(store.skusOutOfNormal()).thenAnswer(invocation -> {
            Object answer = answers.get(Math.min(reads.getAndIncrement(), answers.size() - 1));
            if (answer instanceof RuntimeException failure) {
                throw failure;
            }
            if (answer instanceof java.util.function.Supplier<?> slow) {
                return slow.get();
            }
            return answer;
        });
        new SkuModeGauges(store, meters, clock::get);
    }

    private double gauge(SkuMode mode) {
        return meters.get("stockguard.guard.skus").tag("mode", mode.name()).gauge().value();
    }

    @Test
    void countsEachModeOtherThanNormalAndCountsAModeNoSkuIsInAsZero() {
        answers.add(Map.of(SkuMode.FROZEN, 3L));

        assertThat(gauge(SkuMode.FROZEN)).isEqualTo(3);
        assertThat(gauge(SkuMode.THROTTLED)).isZero();
        assertThat(meters.find("stockguard.guard.skus").tag("mode", "NORMAL").gauge()).isNull();
    }

    @Test
    void readsTheDatabaseAtMostOncePerRefreshHoweverOftenScraped() {
        answers.add(Map.of(SkuMode.FROZEN, 1L));
        answers.add(Map.of(SkuMode.FROZEN, 2L));

        for (int i = 0; i < 10; i++) {
            assertThat(gauge(SkuMode.FROZEN)).isEqualTo(1);
        }
        assertThat(reads.get()).isEqualTo(1);
        clock.addAndGet(SkuModeGauges.REFRESH.toNanos());
        assertThat(gauge(SkuMode.FROZEN)).isEqualTo(2);
        assertThat(reads.get()).isEqualTo(2);
    }

    @Test
    void theLastCountStandsWhileTheDatabaseCannotAnswerAndNoneIsShownBeforeTheFirst() {
        answers.add(new IllegalStateException("database down"));
        assertThat(gauge(SkuMode.FROZEN)).isNaN();

        answers.clear();
        reads.set(0);
        answers.add(Map.of(SkuMode.THROTTLED, 4L));
        answers.add(new IllegalStateException("database down"));
        assertThat(gauge(SkuMode.THROTTLED)).isEqualTo(4);
        clock.addAndGet(SkuModeGauges.REFRESH.toNanos());
        assertThat(gauge(SkuMode.THROTTLED)).as("kept, and asked again").isEqualTo(4);
        assertThat(reads.get()).isEqualTo(2);
    }

    @Test
    void aScrapeShowsTheLastCountWhileTheDatabaseIsStalledAndTheNewOneOnceItAnswers() {
        java.util.concurrent.CountDownLatch databaseBack = new java.util.concurrent.CountDownLatch(1);
        answers.add(Map.of(SkuMode.FROZEN, 1L));
        answers.add((java.util.function.Supplier<Map<SkuMode, Long>>) () -> {
            try {
                databaseBack.await(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Map.of(SkuMode.FROZEN, 2L);
        });
        assertThat(gauge(SkuMode.FROZEN)).isEqualTo(1);
        clock.addAndGet(SkuModeGauges.REFRESH.toNanos());

        for (int i = 0; i < 3; i++) {
            assertThat(gauge(SkuMode.FROZEN)).as("the database has not answered yet").isEqualTo(1);
        }
        assertThat(reads.get()).as("one count under way, not one per scrape").isEqualTo(2);

        databaseBack.countDown();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5))
                .until(() -> gauge(SkuMode.FROZEN) == 2);
    }
}
