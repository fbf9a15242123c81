package io.stockguard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WarmUpTest {

    private static final Duration ROUND = Duration.ofSeconds(1);

    /** A compiler that works these many milliseconds in each round, in turn (the last one repeats). */
    private static final class Compiler {
        final AtomicLong total = new AtomicLong();
        final ArrayDeque<Long> perRound;
        final AtomicInteger rounds = new AtomicInteger();

        Compiler(Long... perRound) {
            this.perRound = new ArrayDeque<>(List.of(perRound));
        }

        void round() {
            rounds.incrementAndGet();
            long spent = perRound.size() > 1 ? perRound.poll() : perRound.peek();
            total.addAndGet(spent);
        }
    }

    @Test
    void roundsGoOnUntilOneInWhichTheCompilerWorkedUnderFivePercent() throws Exception {
        Compiler compiler = new Compiler(900L, 300L, 49L);
        WarmUp.Done done = new WarmUp(ROUND, compiler.total::get).run(compiler::round);

        assertThat(done).isEqualTo(new WarmUp.Done(3, 49, true));
        assertThat(compiler.rounds.get()).isEqualTo(3);
    }

    @Test
    void aQuietCompilerStillGetsOneRound() throws Exception {
        Compiler compiler = new Compiler(0L);
        assertThat(new WarmUp(ROUND, compiler.total::get).run(compiler::round)).isEqualTo(new WarmUp.Done(1, 0, true));
    }

    @Test
    void aCompilerThatNeverSettlesStopsTheWarmUpAtTheLimitAndSaysSo() throws Exception {
        Compiler compiler = new Compiler(50L);
        WarmUp.Done done = new WarmUp(ROUND, compiler.total::get).run(compiler::round);

        assertThat(done).isEqualTo(new WarmUp.Done(WarmUp.ROUNDS_MAX, 50, false));
        assertThat(compiler.rounds.get()).isEqualTo(WarmUp.ROUNDS_MAX);
    }

    @Test
    void aJvmThatDoesNotMeasureItsCompilerGetsOneRoundAsBefore() throws Exception {
        AtomicInteger rounds = new AtomicInteger();
        WarmUp.Done done = new WarmUp(ROUND, () -> -1).run(rounds::incrementAndGet);

        assertThat(done.rounds()).isEqualTo(1);
        assertThat(done.settled()).isFalse();
        assertThat(rounds.get()).isEqualTo(1);
    }

    @Test
    void aZeroRoundIsNoWarmUp() throws Exception {
        AtomicInteger rounds = new AtomicInteger();
        assertThat(new WarmUp(Duration.ZERO, () -> 0).run(rounds::incrementAndGet).rounds()).isZero();
        assertThat(rounds.get()).isZero();
    }
}
