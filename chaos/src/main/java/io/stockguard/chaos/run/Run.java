package io.stockguard.chaos.run;

import io.stockguard.chaos.Tier;
import io.stockguard.chaos.check.Attempt;
import io.stockguard.chaos.check.Evidence;
import io.stockguard.chaos.check.OrderFacts;
import io.stockguard.chaos.cluster.Cluster;
import io.stockguard.chaos.cluster.Deployment;
import io.stockguard.chaos.cluster.ServiceInstance;
import io.stockguard.chaos.history.History;
import io.stockguard.chaos.workload.Api;
import io.stockguard.chaos.workload.Catalogue;
import io.stockguard.chaos.workload.FinalReads;
import io.stockguard.chaos.workload.Target;
import io.stockguard.chaos.workload.Workload;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * One run: a tier's cluster started, its catalogue created, clients loading it while the nemesis
 * plays the schedule, then the final reads, all into one history written to the run's folder.
 *
 * @param deployment how many instances, and what they wait for
 * @param clients client threads
 * @param kafkaBrokers brokers of the full tier (1, or 3 for broker faults)
 */
public record Run(Tier tier, Deployment deployment, long seed, Schedule schedule, int clients, int kafkaBrokers,
        Path jar, Path folder, Stage stage) {

    /** A chaos run: the standard catalogue, nothing around the load. */
    public Run(Tier tier, Deployment deployment, long seed, Schedule schedule, int clients, int kafkaBrokers, Path jar,
            Path folder) {
        this(tier, deployment, seed, schedule, clients, kafkaBrokers, jar, folder, Stage.NONE);
    }

    /** A request that takes longer than this counts as unanswered (and is retried). */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    /** Holds ending this soon after the load are waited for before the final reads; longer ones never end in a run. */
    private static final Duration HOLDS_ENDING_SOON = Duration.ofMinutes(2);
    /** After the load, expiry sweeps (every second) must have settled the short holds. */
    private static final Duration EXPIRY_MARGIN = Duration.ofSeconds(4);

    /** What a run produced: its history and how long the drain after the load took. */
    public record Recorded(History history, Optional<Duration> drained, Duration startup, Path folder,
            List<Stalls.Stall> stalls) {
    }

    public Recorded execute() {
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        History history = new History();
        Stalls stalls = Stalls.measure(history);
        long started = System.nanoTime();
        try (Cluster cluster = Cluster.start(tier, deployment, jar, folder, kafkaBrokers,
                stage.settings())) {
            Duration startup = Duration.ofNanos(System.nanoTime() - started);
            List<Target> targets = cluster.instances().stream()
                    .map(i -> new Target(i.name(), i.baseUrl())).toList();
            Api api = new Api(REQUEST_TIMEOUT);
            Catalogue catalogue = stage.catalogue();
            Workload workload = new Workload(targets, api, REQUEST_TIMEOUT, history, catalogue);
            workload.createCatalogue();
            workload.start(clients, seed, stage.traffic());
            stage.loadStarted(cluster, targets, history);
            FinalReads reads = new FinalReads(targets, api, history, catalogue, tier.hasRedis(), folder);
            try {
                new Nemesis(cluster, history, seed).play(schedule, () -> reads.metrics("warmup"), stage);
            } finally {
                workload.stop();
                stage.loadEnded();
            }
            ensureRunning(cluster);
            LockSupport.parkNanos(Workload.shortHoldMax().plus(EXPIRY_MARGIN).toNanos());
            awaitHoldsEndingSoon(history);
            Optional<Duration> drained;
            try (Connection database = cluster.databaseConnection()) {
                drained = reads.awaitDrained(database);
                reads.read(database);
                reads.dumpDatabase(database);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read the database for the final check", e);
            }
            return new Recorded(history, drained, startup, folder, stalls.stop(folder));
        } finally {
            stalls.halt();
            history.write(folder.resolve("history.jsonl"));
        }
    }

    /**
     * Waits until every hold that ends within {@link #HOLDS_ENDING_SOON} (an extended short hold, say)
     * has ended and been expired, so that the final reads of orders and of SKUs see one state: a hold
     * expiring between the two would leave a SKU's reserved units apart from what its orders hold.
     */
    private static void awaitHoldsEndingSoon(History history) {
        long now = history.millis();
        long until = now;
        Evidence evidence = Evidence.of(history);
        for (OrderFacts order : evidence.orders()) {
            long extended = order.extensions().stream().mapToLong(a -> a.invoke().ttlSeconds() == null ? 0
                    : a.invoke().ttlSeconds()).max().orElse(0);
            for (Attempt reserve : order.reserves()) {
                Long ttl = reserve.invoke().ttlSeconds();
                if (ttl == null || reserve.refused()) {
                    continue;
                }
                long sent = reserve.completedAt() == Long.MAX_VALUE ? now : reserve.completedAt();
                long ends = sent + Math.max(ttl, extended) * 1_000;
                if (ends > now && ends <= now + HOLDS_ENDING_SOON.toMillis()) {
                    until = Math.max(until, ends);
                }
            }
        }
        if (until > now) {
            LockSupport.parkNanos(Duration.ofMillis(until - now).plus(EXPIRY_MARGIN).toNanos());
        }
    }

    /** An instance whose restart failed during the run is started once more for the final reads. */
    private static void ensureRunning(Cluster cluster) {
        for (ServiceInstance instance : cluster.instances()) {
            if (!instance.isRunning()) {
                System.err.println("chaos: instance " + instance.name() + " is down after the run; starting it for "
                        + "the final reads");
                cluster.stopOrphanedEmbeddedDatabase();
                instance.start();
            }
        }
    }
}
