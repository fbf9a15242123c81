package io.stockguard.chaos.cluster;

/** How a Redis tier's Redis is deployed for a run. */
public enum RedisSetup {

    /** A master and a replica, the service reaching the master through a proxy: a failover keeps the address. */
    PROXIED,
    /** A master, a replica and a Sentinel that promotes it; the service follows it ({@code redis-sentinel://}). */
    SENTINEL,
    /**
     * Redis Cluster: three masters with a replica each ({@code stockguard.redis.cluster=true}). Replica
     * acknowledgement is not available there, so it runs with {@code wait-replicas} 0 only.
     */
    CLUSTER;

    /** How a report's label ends, e.g. ", Sentinel"; nothing for the proxied Redis. */
    String label() {
        return this == PROXIED ? "" : this == SENTINEL ? ", Sentinel" : ", Redis Cluster";
    }

    /** The command-line option that asks for it. */
    String option() {
        return this == PROXIED ? "" : this == SENTINEL ? " --sentinel" : " --redis-cluster";
    }

    /** How a result folder's name ends. */
    String folder() {
        return this == PROXIED ? "" : this == SENTINEL ? "-sentinel" : "-cluster";
    }
}
