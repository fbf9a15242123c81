package io.stockguard.chaos.cluster;

import io.stockguard.chaos.Tier;
import java.util.Map;

/**
 * How a tier is deployed for one run, beyond the tier itself: how many service instances share its
 * stores, and how many Redis replicas every instance waits for before it acknowledges a change. A
 * new user's settings ({@code wait-replicas} 0) are what the suite runs first; each recommended
 * setting runs beside them, never instead of them.
 *
 * @param instances service instances on the tier's stores (the embedded tier keeps its database in
 *     one instance's data folder, so it always has one)
 * @param waitReplicas {@code stockguard.redis.wait-replicas} of every instance (Redis tiers only)
 * @param redis how Redis is deployed: behind a proxy (a failover keeps the master's address), with a
 *     Sentinel that promotes the replica, or as a Redis Cluster with a replica per master
 */
public record Deployment(int instances, int waitReplicas, RedisSetup redis) {

    /** The embedded tier's only deployment. */
    public static final Deployment EMBEDDED = new Deployment(1, 0, RedisSetup.PROXIED);
    /** Instances a Redis tier runs with unless told otherwise: enough for two owners' views to differ. */
    public static final int INSTANCES_DEFAULT = 2;
    public static final int INSTANCES_MAX = 4;

    public Deployment {
        if (instances < 1 || instances > INSTANCES_MAX) {
            throw new IllegalArgumentException("instances: 1 to " + INSTANCES_MAX + ", not " + instances);
        }
        if (waitReplicas < 0 || waitReplicas > 1) {
            throw new IllegalArgumentException("wait-replicas: 0 or 1 (the suite runs one replica), not "
                    + waitReplicas);
        }
        if (redis == RedisSetup.CLUSTER && waitReplicas != 0) {
            throw new IllegalArgumentException("wait-replicas is not available in Redis Cluster: 0 only");
        }
    }

    /** The deployment of {@code tier}: as asked on a Redis tier, the only one on the embedded tier. */
    public static Deployment of(Tier tier, int instances, int waitReplicas, RedisSetup redis) {
        return tier.hasRedis() ? new Deployment(instances, waitReplicas, redis) : EMBEDDED;
    }

    /** The settings it gives every instance of a Redis tier. */
    Map<String, String> redisSettings() {
        return Map.of("stockguard.redis.wait-replicas", Integer.toString(waitReplicas));
    }

    /** How a report names it, e.g. "2 instances, wait-replicas 0 (the default)". */
    public String label() {
        return instances + (instances == 1 ? " instance" : " instances") + ", wait-replicas " + waitReplicas
                + (waitReplicas == 0 ? " (the default)" : "") + redis.label();
    }

    /** The command-line options that run it again. */
    public String options() {
        return "--instances=" + instances + " --wait-replicas=" + waitReplicas + redis.option();
    }

    /** A short name for result folders, e.g. {@code i2-w0}. */
    public String folderName() {
        return "i" + instances + "-w" + waitReplicas + redis.folder();
    }
}
