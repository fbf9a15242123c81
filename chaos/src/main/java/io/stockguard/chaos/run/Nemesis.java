package io.stockguard.chaos.run;

import io.stockguard.chaos.cluster.Cluster;
import io.stockguard.chaos.history.History;
import io.stockguard.chaos.history.Op;
import io.stockguard.chaos.nemesis.Fault;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * Plays a schedule against a cluster: each fault injected, held, healed, then a quiet time,
 * every step recorded in the history (process {@code nemesis}). The times between steps are the
 * shape of the run, not waits for something to happen.
 */
final class Nemesis {

    private final Cluster cluster;
    private final History history;
    private final Random random;

    Nemesis(Cluster cluster, History history, long seed) {
        this.cluster = cluster;
        this.history = history;
        this.random = new Random(seed ^ 0x5DEECE66DL);
    }

    /** @param warmUpEnded called when the fault-free stretch ends, before the first fault */
    void play(Schedule schedule, Runnable warmUpEnded) {
        play(schedule, warmUpEnded, Stage.NONE);
    }

    /** As {@link #play(Schedule, Runnable)}, telling {@code stage} of each fault as it comes and goes. */
    void play(Schedule schedule, Runnable warmUpEnded, Stage stage) {
        pause(schedule.warmUp());
        if (schedule.faultFree()) {
            pause(schedule.faultFreeLoad());
            return;
        }
        warmUpEnded.run();
        for (Fault fault : schedule.faults()) {
            stage.injecting(fault);
            Fault.Injected injected = step(fault.name(), fault.description(), () -> fault.inject(cluster, random));
            pause(fault.hold());
            step("heal-" + fault.name(), injected == null ? "nothing to heal" : injected.detail(), () -> {
                if (injected != null) {
                    injected.heal();
                }
                return null;
            });
            stage.healed(fault, injected != null);
            pause(schedule.observeAfterHeal());
        }
    }

    /** Records the step's invocation, does it, records its completion (INFO with the error if it failed). */
    private <T> T step(String name, String description, java.util.function.Supplier<T> action) {
        Op invoked = history.invoke(new Op(0, "nemesis", Op.Type.INVOKE, name, 0, null, null, null, null, null, null,
                null, null, null, null, null, null, null, null, description));
        try {
            T result = action.get();
            String detail = result instanceof Fault.Injected injected ? injected.detail() : description;
            history.complete(invoked, Op.Type.OK, op -> op.withAnswer(null, null, null, null, null, null, null, detail));
            return result;
        } catch (RuntimeException e) {
            history.complete(invoked, Op.Type.INFO, op -> op.withAnswer(null, null, null, null, null, null, null,
                    "the nemesis failed: " + e));
            System.err.println("chaos: " + name + " failed: " + e);
            return null;
        }
    }

    private static void pause(Duration duration) {
        LockSupport.parkNanos(duration.toNanos());
    }
}
