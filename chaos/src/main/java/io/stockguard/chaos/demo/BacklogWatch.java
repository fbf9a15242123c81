package io.stockguard.chaos.demo;

import io.stockguard.chaos.workload.Api;
import io.stockguard.chaos.workload.Target;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Verifies the database pause as the operator would see it: while PostgreSQL is paused Kafka keeps
 * every change, the backlog grows past the demo's bound and the service says so
 * ({@code stockguard_journal_backlogged} 1: new reservations throttled, a THROTTLE alert); when the
 * database is back the backlog drains and the degrade is lifted. Watched from the injection until
 * the degrade ends, bounded.
 */
final class BacklogWatch {

    static final String INCIDENT = "database paused";
    private static final String BACKLOG = "stockguard_journal_backlog";
    private static final String BACKLOGGED = "stockguard_journal_backlogged";
    private static final Duration WATCH_MAX = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(500);

    private final Api api;
    private final List<Target> instances;
    private final Verdicts verdicts;
    private volatile boolean healed;
    private volatile long healedAtNanos;
    private Thread watcher;

    BacklogWatch(Api api, List<Target> instances, Verdicts verdicts) {
        this.api = api;
        this.instances = instances;
        this.verdicts = verdicts;
    }

    /** Starts watching when the pause begins. */
    void start() {
        watcher = Thread.ofPlatform().name("demo-backlog-watch").daemon().start(this::watch);
    }

    /** The database is back. */
    void healed() {
        healedAtNanos = System.nanoTime();
        healed = true;
    }

    /** Waits (bounded) for the verdict. */
    void join(Duration max) throws InterruptedException {
        if (watcher != null) {
            watcher.join(max);
        }
    }

    private void watch() {
        long started = System.nanoTime();
        long deadline = started + WATCH_MAX.toNanos();
        double peak = 0;
        long degradedAt = -1;
        long recoveredAt = -1;
        while (System.nanoTime() < deadline && recoveredAt < 0) {
            peak = Math.max(peak, Scrape.max(api, instances, BACKLOG).orElse(0));
            boolean degraded = Scrape.sum(api, instances, BACKLOGGED).orElse(0) > 0;
            if (degraded && degradedAt < 0) {
                degradedAt = System.nanoTime();
            } else if (!degraded && degradedAt >= 0 && healed) {
                recoveredAt = System.nanoTime();
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
        if (degradedAt < 0 && peak <= Demo.BACKLOG_DEGRADE_ABOVE) {
            // The shoppers could not place enough orders into the pause on this machine: the degrade was
            // not due, and not declaring it is right. Said plainly rather than failed.
            verdicts.record(INCIDENT, true, String.format("not exercised: the pause built a backlog of %.0f events, "
                    + "not above the demo's bound of %d (a slow machine); Kafka kept every change",
                    peak, Demo.BACKLOG_DEGRADE_ABOVE));
        } else if (degradedAt < 0) {
            verdicts.record(INCIDENT, false, String.format("the backlog peaked at %.0f events, above the bound of %d, "
                    + "and the service never declared the degrade", peak, Demo.BACKLOG_DEGRADE_ABOVE));
        } else if (recoveredAt < 0) {
            verdicts.record(INCIDENT, false, String.format("declared degraded %d s into the pause (backlog %.0f), not "
                    + "recovered within %d s", seconds(started, degradedAt), peak, WATCH_MAX.toSeconds()));
        } else {
            verdicts.record(INCIDENT, true, String.format("Kafka kept every change; backlog peaked at %.0f events, "
                    + "degrade declared %d s into the pause (reservations throttled), lifted %d s after the database "
                    + "came back", peak, seconds(started, degradedAt), seconds(healedAtNanos, recoveredAt)));
        }
    }

    private static long seconds(long fromNanos, long toNanos) {
        return Math.max(0, Duration.ofNanos(toNanos - fromNanos).toSeconds());
    }
}
