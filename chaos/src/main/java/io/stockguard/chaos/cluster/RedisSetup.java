package io.stockguard.chaos.cluster;

/** How a Redis tier's Redis is deployed for a run. */
public enum RedisSetup {

    /** A master and a replica, the service reaching the master through a proxy: a failover keeps the address. */
    PROXIED("", "", ""),
    /** A master, a replica and a Sentinel that promotes it; the service follows it ({@code redis-sentinel://}). */
    SENTINEL(", Sentinel", " --sentinel", "-sentinel"),
    /**
     * Redis Cluster: three masters with a replica each ({@code stockguard.redis.cluster=true}). Replica
     * acknowledgement is not available there, so it runs with {@code wait-replicas} 0 only.
     */
    CLUSTER(", Redis Cluster", " --redis-cluster", "-cluster");

    private final String label;
    private final String option;
    private final String folder;

    RedisSetup(String label, String option, String folder) {
        this.label = label;
        this.option = option;
        this.folder = folder;
    }

    String label() {
        return label;
    }

    String option() {
        return option;
    }

    String folder() {
        return folder;
    }
}
