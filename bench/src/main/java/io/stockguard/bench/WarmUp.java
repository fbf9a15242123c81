package io.stockguard.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The unmeasured runs before each measured one: rounds of a fixed length until one in which this
 * JVM's JIT compiler worked under {@link #SETTLED_SHARE} of the round, at least one round and at most
 * {@link #ROUNDS_MAX}. The service runs in this JVM (its HTTP contenders too), so this is the
 * compiler that decides how fast its code is. A fixed warm-up was not enough on two busy cores: the
 * wrk ladder measured the standard tier doubling its rate over the 90 s after a 30-s warm-up, while the
 * compiler was still at work, and the bench's one second (five in full size) measured contenders at
 * different stages of their compilation, which made two runs of one contender differ by more than
 * the contenders did.
 */
final class WarmUp {

    static final double SETTLED_SHARE = 0.05;
    static final int ROUNDS_MAX = 12;

    /** One unmeasured round of the contender. */
    @FunctionalInterface
    interface Round {
        void run() throws Exception;
    }

    /** How many rounds were run, and the compile time of the last. */
    record Done(int rounds, long lastCompileMillis, boolean settled) {
    }

    private final Duration round;
    private final LongSupplier compiledMillis;

    /**
     * @param round how long each round runs
     * @param compiledMillis the compiler's total time so far, in milliseconds; -1 when the JVM does
     *     not measure it (then one round, as before)
     */
    WarmUp(Duration round, LongSupplier compiledMillis) {
        this.round = round;
        this.compiledMillis = compiledMillis;
    }

    static WarmUp ofThisJvm(Duration round) {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        boolean measured = compiler != null && compiler.isCompilationTimeMonitoringSupported();
        return new WarmUp(round, measured ? compiler::getTotalCompilationTime : () -> -1);
    }

    Duration round() {
        return round;
    }

    /** Runs rounds until the compiler has settled; none when the round is zero. */
    Done run(Round contender) throws Exception {
        if (round.isZero()) {
            return new Done(0, 0, true);
        }
        long budget = (long) (round.toMillis() * SETTLED_SHARE);
        for (int rounds = 1; ; rounds++) {
            long before = compiledMillis.getAsLong();
            contender.run();
            long after = compiledMillis.getAsLong();
            if (before < 0 || after < 0) {
                return new Done(rounds, -1, false);
            }
            long spent = after - before;
            if (spent < budget || rounds == ROUNDS_MAX) {
                return new Done(rounds, spent, spent < budget);
            }
        }
    }
}
