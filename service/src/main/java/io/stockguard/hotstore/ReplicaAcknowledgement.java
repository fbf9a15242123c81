package io.stockguard.hotstore;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.platform.Combiner;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replica acknowledgement ({@code stockguard.redis.wait-replicas}): whether the changes made so
 * far reached the replicas asked for. Concurrent callers share one wait: whoever finds none under
 * way sends it for everyone queued (flat combining), and it covers every change made before it was
 * sent, so a burst of reservations costs one WAIT, not one each.
 *
 * <p>When a wait comes back short and Redis reports fewer replicas connected than asked for (the
 * replica is gone, or a failover left the new master alone) the replicas are marked missing: the request that met it is still answered (the history fence,
 * not the replica, keeps a failover from selling acknowledged stock again: history.lua), and its
 * SKUs, and every hot SKU a request touches after it, are handed to the database, which sells them
 * with definite answers. A SKU is loaded into Redis again only while Redis reports the replicas
 * connected (load.lua), and a load that succeeds marks them present again: the seeds'
 * circuit-break, degrade, and return. A short wait with every replica connected (a replica slow
 * on a busy machine) degrades nothing: the change stands and is counted. A wait that fails while
 * Redis still answers counts as short; only one that fails with Redis silent too is "outcome unknown".
 */
final class ReplicaAcknowledgement {

    private static final Logger log = LoggerFactory.getLogger(ReplicaAcknowledgement.class);
    /** Callers served by one wait at most; more wait for the next. */
    private static final int CALLERS_PER_WAIT_MAX = 1_000;

    private final RedisGateway redis;
    private final int wanted;
    private final Duration timeout;
    private final Combiner<Boolean, Wait> waits;
    private final AtomicBoolean missing = new AtomicBoolean();
    private final Counter shortWaits;
    private final Counter failedWaits;
    /** How long an answer of {@link #mayLoad()} stands before Redis is asked again. */
    static final Duration LOAD_PROBE_EVERY = Duration.ofMillis(250);
    private final LongSupplier nanoTime;
    /** Whether Redis last reported the replicas connected while they were missing, and when (nano time). */
    private volatile LoadProbe lastProbe;
    private final AtomicBoolean probing = new AtomicBoolean();

    private record LoadProbe(long at, boolean connected) {
    }

    /** What one wait came back with: the replicas that have every earlier change, or how it failed. */
    private record Wait(long reached, RedisGateway.HotStoreUnavailable failure) {
    }

    ReplicaAcknowledgement(RedisGateway redis, RedisProperties properties, MeterRegistry meters) {
        this(redis, properties, meters, System::nanoTime);
    }

    ReplicaAcknowledgement(RedisGateway redis, RedisProperties properties, MeterRegistry meters,
            LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.redis = redis;
        this.wanted = properties.cluster() ? 0 : properties.waitReplicas();
        this.timeout = properties.waitTimeout();
        this.waits = new Combiner<>(CALLERS_PER_WAIT_MAX, this::waitOnce);
        this.shortWaits = Counter.builder("stockguard.redis.replica.short-waits")
                .description("replica waits that came back with fewer replicas than stockguard.redis.wait-replicas")
                .register(meters);
        this.failedWaits = Counter.builder("stockguard.redis.replica.failed-waits")
                .description("replica waits that failed while Redis still answered (counted as short waits too)")
                .register(meters);
        Gauge.builder("stockguard.redis.replica.missing", missing, m -> m.get() ? 1 : 0)
                .description("1 while the replicas wait-replicas asks for are missing (SKUs are sold by the database)")
                .register(meters);
    }

    /** Replicas every change must reach; 0 when none are asked for (or in Redis Cluster). */
    int wanted() {
        return wanted;
    }

    /**
     * Waits for the replicas to have every change made so far; true when they do (or none are asked
     * for). False marks them missing.
     *
     * @throws RedisGateway.HotStoreUnavailable when the wait failed and Redis does not answer either
     */
    boolean replicated() {
        if (wanted == 0) {
            return true;
        }
        // Taken into a wait within this, or the waits are stuck: counted as short.
        Wait wait = waits.submit(Boolean.TRUE, timeout.multipliedBy(4));
        boolean failed = wait != null && wait.failure() != null;
        if (wait != null && !failed && wait.reached() >= wanted) {
            return true;
        }
        shortWaits.increment();
        int connected;
        try {
            connected = redis.connectedReplicas();
        } catch (RedisGateway.HotStoreUnavailable e) {
            if (failed) {
                throw new RedisGateway.HotStoreUnavailable("Redis failed while waiting for its replicas: "
                        + wait.failure().getMessage(), wait.failure());
            }
            throw e;
        }
        if (failed) {
            // Redis answers, so the wait was slow (a reply later than the command timeout on a
            // machine starved of CPU) or lost with its connection: the change is in Redis, and the
            // wait is judged as a short one. Answering "outcome unknown" here once gave a client a
            // 503 with no fault at all.
            failedWaits.increment();
            log.debug("a replica wait failed while Redis answers ({} of {} replicas connected): {}", connected,
                    wanted, wait.failure().getMessage());
        }
        if (connected >= wanted) {
            // Connected but slow (a busy machine): the change stands, and Redis goes on selling.
            log.debug("a replica wait came back short within {}, with all {} replicas connected", timeout, wanted);
            return false;
        }
        if (missing.compareAndSet(false, true)) {
            log.warn("Redis has {} of the {} replicas stockguard.redis.wait-replicas asks for: hot SKUs go to the "
                    + "database until Redis reports them connected again", connected, wanted);
        }
        return false;
    }

    /** Whether a wait came back short since Redis last took a load with the replicas connected. */
    boolean missing() {
        return missing.get();
    }

    /**
     * Whether a SKU may be loaded into Redis now. While the replicas are missing, only once Redis
     * reports them connected again: a load holds the SKU's row in the database while it talks to
     * Redis, and loads tried one after another against a Redis without its replicas (or one not
     * answering, during a failover) kept that row locked for seconds, so that every database-path
     * change of the SKU (a restock, an adjustment) waited behind them and timed out. Redis is
     * asked outside any lock, by one caller at a time, at most every {@link #LOAD_PROBE_EVERY};
     * the others take the last answer. The load itself still checks the replicas (load.lua), and
     * one that succeeds marks them present.
     */
    boolean mayLoad() {
        if (wanted == 0 || !missing.get()) {
            return true;
        }
        LoadProbe last = lastProbe;
        long now = nanoTime.getAsLong();
        if (last != null && now - last.at() < LOAD_PROBE_EVERY.toNanos()) {
            return last.connected();
        }
        if (!probing.compareAndSet(false, true)) {
            return last != null && last.connected();
        }
        try {
            boolean connected;
            try {
                connected = redis.connectedReplicas() >= wanted;
            } catch (RedisGateway.HotStoreUnavailable e) {
                connected = false;
            }
            lastProbe = new LoadProbe(nanoTime.getAsLong(), connected);
            return connected;
        } finally {
            probing.set(false);
        }
    }

    /** A load found the replicas connected: Redis may sell again. */
    void present() {
        if (missing.compareAndSet(true, false)) {
            log.info("Redis reports the {} replicas stockguard.redis.wait-replicas asks for connected again", wanted);
        }
    }

    private void waitOnce(List<Combiner.Pending<Boolean, Wait>> callers) {
        Wait result;
        try {
            result = new Wait(redis.replicasAfterEarlierWrites(wanted, timeout), null);
        } catch (RedisGateway.HotStoreUnavailable e) {
            result = new Wait(-1, e);
        }
        Wait done = result;
        callers.forEach(caller -> caller.complete(done));
    }
}
