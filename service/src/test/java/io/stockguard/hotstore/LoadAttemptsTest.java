package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Who may try to load a SKU back into the hot store, and when (the logic only, on a clock the test
 * moves; RedisClusterWithReplicasIT shows it against a cluster whose node stops answering).
 */
class LoadAttemptsTest {

    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    private final LoadAttempts attempts = new LoadAttempts(nanos::get);
    private final SkuId sku = SkuId.of("HOT-1");

    @Test
    void oneRequestAtATimeTriesAndTheOthersWaitForItsLoad() {
        LoadAttempts.Turn first = attempts.claim(sku);
        assertThat(first).isInstanceOf(LoadAttempts.Turn.Mine.class);
        assertThat(attempts.claim(sku)).as("a second request while the first loads")
                .isInstanceOf(LoadAttempts.Turn.Taken.class);
        assertThat(attempts.claim(SkuId.of("OTHER-1"))).as("another SKU is not held up")
                .isInstanceOf(LoadAttempts.Turn.Mine.class);

        LoadAttempts.Turn second = attempts.claim(sku);
        assertThat(((LoadAttempts.Turn.Taken) second).done()).as("the second waits for the first's load").isNotDone();

        ((LoadAttempts.Turn.Mine) first).claim().loaded();
        assertThat(((LoadAttempts.Turn.Taken) second).done()).as("and is let go when it ends").isDone();
        assertThat(attempts.claim(sku)).as("after a load that worked, at once").isInstanceOf(LoadAttempts.Turn.Mine.class);
    }

    @Test
    void aFailedLoadLetsItsWaitersGoToo() {
        LoadAttempts.Turn first = attempts.claim(sku);
        LoadAttempts.Turn waiting = attempts.claim(sku);
        ((LoadAttempts.Turn.Mine) first).claim().failed();
        assertThat(((LoadAttempts.Turn.Taken) waiting).done()).isDone();
        assertThat(attempts.claim(sku)).as("and nobody tries again before the pause")
                .isInstanceOf(LoadAttempts.Turn.Paused.class);
    }

    @Test
    void afterAFailedLoadTheNextWaitsAPauseThatDoublesUpToTheMostAndAWorkingLoadForgetsIt() {
        List<Duration> pauses = new ArrayList<>();
        for (int failure = 1; failure <= 7; failure++) {
            LoadAttempts.Turn turn = attempts.claim(sku);
            assertThat(turn).as("try %d once the pause has passed", failure).isInstanceOf(LoadAttempts.Turn.Mine.class);
            Duration pause = ((LoadAttempts.Turn.Mine) turn).claim().failed();
            pauses.add(pause);

            nanos.addAndGet(pause.toNanos() - 1);
            assertThat(attempts.claim(sku)).as("1 ns before the pause ends").isInstanceOf(LoadAttempts.Turn.Paused.class);
            nanos.addAndGet(1);
        }
        assertThat(pauses).containsExactly(Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
                Duration.ofSeconds(2), LoadAttempts.PAUSE_MAX, LoadAttempts.PAUSE_MAX, LoadAttempts.PAUSE_MAX);

        ((LoadAttempts.Turn.Mine) attempts.claim(sku)).claim().loaded();
        assertThat(attempts.remembered()).isZero();
        LoadAttempts.Turn afterSuccess = attempts.claim(sku);
        assertThat(((LoadAttempts.Turn.Mine) afterSuccess).claim().failed()).as("counting starts again")
                .isEqualTo(LoadAttempts.PAUSE_FIRST);
    }

    @Test
    void aPausedSkuSaysHowLongItWaits() {
        ((LoadAttempts.Turn.Mine) attempts.claim(sku)).claim().failed();
        nanos.addAndGet(Duration.ofMillis(100).toNanos());
        assertThat(attempts.claim(sku)).isEqualTo(new LoadAttempts.Turn.Paused(Duration.ofMillis(150)));
    }

    @Test
    void manyRequestsAtOnceGetExactlyOneClaim() throws Exception {
        int requests = 16;
        AtomicInteger mine = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (attempts.claim(sku) instanceof LoadAttempts.Turn.Mine) {
                    mine.incrementAndGet();
                }
            }));
        }
        start.countDown();
        for (Thread thread : threads) {
            assertThat(thread.join(Duration.ofSeconds(10))).isTrue();
        }
        assertThat(mine).hasValue(1);
    }

    @Test
    void pastTheBoundAFailedSkuIsNotRememberedAndIsTriedAgainAtOnce() {
        for (int i = 0; i <= LoadAttempts.SKUS_MAX; i++) {
            ((LoadAttempts.Turn.Mine) attempts.claim(SkuId.of("S-" + i))).claim().failed();
        }
        assertThat(attempts.remembered()).isEqualTo(LoadAttempts.SKUS_MAX);
        LoadAttempts.Turn turn = attempts.claim(sku);
        assertThat(((LoadAttempts.Turn.Mine) turn).claim().failed()).isZero();
        assertThat(attempts.claim(sku)).isInstanceOf(LoadAttempts.Turn.Mine.class);
    }
}
