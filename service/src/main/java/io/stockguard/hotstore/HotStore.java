package io.stockguard.hotstore;

import io.stockguard.platform.Caller;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The hot store of the Redis tiers, as operators and the reconciliation probe see it: preheat,
 * rebuild one SKU (drain and rebase), and read a SKU's hot state. Absent in the embedded tier.
 */
public interface HotStore {

    /** Starts loading every SKU into the hot store in paced batches, or returns the running preheat. */
    PreheatStatus preheat(Caller caller);

    PreheatStatus preheatStatus();

    /**
     * Drain and rebase: freezes the SKU in the hot store, applies everything it journaled to the
     * database, reloads it from the database under a new epoch (which also restores the
     * database's mode). Audited.
     */
    Rebuilt rebuild(SkuId sku, String reason, Caller caller);

    /**
     * Takes the SKU from the hot store (its copy is wrong or lost): nobody sells it until the
     * database has everything it journaled; it is loaded again, under a new epoch, on its next use.
     */
    void handOver(SkuId sku, String why);

    /** The SKU's hot state, read atomically; empty when it is not loaded. */
    Optional<Snapshot> snapshot(SkuId sku);

    /**
     * The SKU's copy when it is one of another Redis history (a failover or restart since it was
     * loaded: nothing may be sold from it), read only to tell how far behind the database it fell;
     * empty when the copy is current or there is none.
     */
    default Optional<Snapshot> copyOfAnotherHistory(SkuId sku) {
        return Optional.empty();
    }

    /** The hot store's own record of an order, as stored; empty when it has none (or lost it). */
    Optional<HotOrder> order(OrderId order);

    /** Progress of a preheat. */
    record PreheatStatus(String state, long total, long loaded, long present, long failed, long retries,
            Instant startedAt, Instant finishedAt, String lastError) {

        public static PreheatStatus idle() {
            return new PreheatStatus("IDLE", 0, 0, 0, 0, 0, null, null, null);
        }
    }

    /** A rebuild's result: the hot state before and after. */
    record Rebuilt(SkuId skuId, boolean rebuilt, Snapshot before, Snapshot after) {
    }

    /** One bucket of the hot store: counters, journaled sum, sequence. */
    record HotBucket(int bucket, long available, long reserved, long sold, long journaledSum, long sequence) {
    }

    /**
     * An order's record in the hot store. {@code state} is the record's own, including the
     * transitional OPENING, CONFIRMING, CANCELLING and EXPIRING of an order being changed.
     *
     * @param lines the lines as ordered, "sku|qty;…"
     * @param linesWithBuckets the lines with the bucket holding each, "sku|qty|bucket;…", once reserved
     * @param holdEndsAt when an unconfirmed hold ends; null for a sale in one step
     */
    record HotOrder(OrderId orderId, String state, String lines, String linesWithBuckets, Instant createdAt,
            Instant holdEndsAt, String traceId) {
    }

    /** Which Redis this instance follows now, for the admin API and the console. */
    Server server();

    /**
     * The Redis an instance follows now. Standalone and Sentinel: the server its connection is on, as
     * that server describes itself; through Sentinels, also the master the Sentinels name (after a
     * promotion the two agree once the client has followed it). Cluster: the nodes as the client last
     * read the topology.
     *
     * @param mode {@code standalone}, {@code sentinel} or {@code cluster}
     * @param sentinelMaster the master's name the Sentinels know it by (sentinel mode), else null
     * @param sentinelsSay the address the Sentinels name as that master now, "host:port"; null when they
     *     could not be asked (then {@code problem} says why) or there are none
     * @param port the port the connected server listens on (its INFO), null in cluster mode or when it
     *     could not be read
     * @param role the connected server's role: {@code master}, or {@code slave} while it is a replica
     * @param runId the connected server's run id: it changes when the server restarts
     * @param replicationId the connected server's replication id: it changes when a replica is promoted
     * @param connectedReplicas replicas connected to it
     * @param clusterNodes cluster mode: "host:port master" or "host:port replica" per node; else empty
     * @param problem what could not be read, null when everything was
     */
    record Server(String mode, String sentinelMaster, String sentinelsSay, Integer port, String role, String runId,
            String replicationId, Integer connectedReplicas, List<String> clusterNodes, String problem) {
    }

    /** A SKU in the hot store, read in one atomic step. */
    record Snapshot(SkuId skuId, long epoch, String mode, long outboxLength, List<HotBucket> buckets) {
    }
}
