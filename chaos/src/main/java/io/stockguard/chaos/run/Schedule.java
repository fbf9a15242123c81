package io.stockguard.chaos.run;

import io.stockguard.chaos.Tier;
import io.stockguard.chaos.cluster.Deployment;
import io.stockguard.chaos.nemesis.Fault;
import io.stockguard.chaos.nemesis.Faults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The faults of one run, in the order the seed chose, with the quiet time around each: a warm-up
 * before the first, and after each heal long enough to see the service recover (the liveness
 * rule looks at the 10 s that follow the first 10 s after a heal).
 */
public record Schedule(List<Fault> faults, Duration warmUp, Duration observeAfterHeal, Duration faultFreeLoad) {

    /** Load before the first fault: the run's fault-free stretch, which the checker also holds to its rules. */
    public static final Duration WARM_UP = Duration.ofSeconds(12);
    public static final Duration OBSERVE_AFTER_HEAL = Duration.ofSeconds(20);

    /** The quick profile's faults: per tier, the two that have found the most. */
    private static final java.util.Map<Tier, List<String>> QUICK = java.util.Map.of(
            Tier.DB, List.of("instance-kill", "postgres-pause"),
            // Each deployment keeps the faults it has: the proxied Redis the first two, a cluster the rest.
            Tier.REDIS, List.of("redis-kill", "redis-failover-fast", "redis-slot-migration", "redis-cluster-takeover"),
            Tier.KAFKA, List.of("redis-kill", "kafka-pause", "redis-cluster-failover", "redis-cluster-takeover"));

    /** The schedule the options ask for on this tier and seed. */
    public static Schedule of(io.stockguard.chaos.Options options, Tier tier, Deployment deployment, long seed) {
        boolean threeBrokers = options.kafkaBrokers() >= 3;
        return switch (options.profile()) {
            case QUICK -> of(tier, deployment, options.faults() != null ? options.faults() : QUICK.get(tier),
                    threeBrokers, seed, options.faultFreeLoad());
            case DEFAULT -> of(tier, deployment, options.faults(), threeBrokers, seed, options.faultFreeLoad());
            case SOAK -> soak(of(tier, deployment, options.faults(), threeBrokers, seed, options.faultFreeLoad()),
                    options.soak(), seed);
        };
    }

    /** Faults drawn one after another from the tier's list until the run has lasted {@code length}. */
    private static Schedule soak(Schedule pool, Duration length, long seed) {
        if (pool.faultFree()) {
            return new Schedule(List.of(), WARM_UP, OBSERVE_AFTER_HEAL, length);
        }
        Random random = new Random(seed);
        List<Fault> drawn = new ArrayList<>();
        Duration total = WARM_UP;
        while (total.compareTo(length) < 0) {
            Fault fault = pool.faults().get(random.nextInt(pool.faults().size()));
            drawn.add(fault);
            total = total.plus(fault.hold()).plus(OBSERVE_AFTER_HEAL);
        }
        return new Schedule(List.copyOf(drawn), WARM_UP, OBSERVE_AFTER_HEAL, Duration.ZERO);
    }

    /**
     * The faults named (or every fault the tier has), shuffled by the seed; faults that need three
     * brokers, or more instances than the deployment has, only when the run has them. An empty list
     * is a run without faults.
     */
    public static Schedule of(Tier tier, Deployment deployment, List<String> names, boolean threeBrokers, long seed,
            Duration faultFreeLoad) {
        List<Fault> chosen = new ArrayList<>();
        // Faults named on the command line are drawn in the suite's own order, whatever order they were
        // named in, so the rerun line a report prints (the faults in the order they ran) runs them in
        // that order again: the seed's shuffle starts from the same list.
        List<String> named = names == null ? null : List.copyOf(names);
        if (named != null) {
            named.forEach(Faults::named);
        }
        List<Fault> candidates = named == null ? Faults.all()
                : Faults.all().stream().filter(fault -> named.contains(fault.name())).toList();
        for (Fault fault : candidates) {
            if (fault.tiers().contains(tier) && (threeBrokers || !fault.needsThreeBrokers())
                    && deployment.instances() >= fault.instancesNeeded()
                    && (fault.needsRedis() == null || !tier.hasRedis() || fault.needsRedis() == deployment.redis())) {
                chosen.add(fault);
            }
        }
        Collections.shuffle(chosen, new Random(seed));
        return new Schedule(List.copyOf(chosen), WARM_UP, OBSERVE_AFTER_HEAL, faultFreeLoad);
    }

    public boolean faultFree() {
        return faults.isEmpty();
    }

    /** Roughly how long the load runs. */
    public Duration loadDuration() {
        if (faultFree()) {
            return warmUp.plus(faultFreeLoad);
        }
        Duration total = warmUp;
        for (Fault fault : faults) {
            total = total.plus(fault.hold()).plus(observeAfterHeal);
        }
        return total;
    }
}
