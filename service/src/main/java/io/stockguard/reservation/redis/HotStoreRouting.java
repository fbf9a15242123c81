package io.stockguard.reservation.redis;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.stockguard.journal.JournalProgress;
import io.stockguard.platform.PeriodicWork;
import io.stockguard.reservation.jdbc.HotStoreSource;
import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.TaskScheduler;

/**
 * Decides, per request, whether the hot store may serve it: Redis must be usable (the breaker not
 * open) and none of the request's SKUs may be marked invalid. A SKU is invalid after the database
 * path sold it (the hot store no longer knows its stock) until it is rebuilt: its outbox drained
 * into the database, then reloaded from the database under a new epoch. Every instance learns the
 * invalid SKUs from the database, within a second.
 */
final class HotStoreRouting extends PeriodicWork {

    private static final Logger log = LoggerFactory.getLogger(HotStoreRouting.class);
    private static final Duration REFRESH_INTERVAL = Duration.ofSeconds(1);
    /** Invalid SKUs read and rebuilt per refresh; more wait for the next. */
    private static final int REBUILDS_PER_REFRESH_MAX = 200;
    /** How long a request waits for a rebuild of its SKU before it goes to the database path. */
    private static final Duration REBUILD_WAIT_MAX = Duration.ofSeconds(1);

    private final CircuitBreaker breaker;
    private final JournalProgress journal;
    /** Zero with the synchronous journal; see {@link #settled}. */
    private final Duration takeoverDelay;
    private final Duration journalWaitMax;
    private final HotStoreSource database;
    private final OutboxDrain drain;
    private final HotStockLoader loader;
    private final TaskScheduler scheduler;
    private final java.time.Clock clock;
    private final Set<SkuId> invalid = ConcurrentHashMap.newKeySet();
    private final java.util.Map<SkuId, java.util.concurrent.CountDownLatch> rebuilding = new ConcurrentHashMap<>();

    private final io.micrometer.core.instrument.Counter takeovers;

    HotStoreRouting(CircuitBreaker breaker, HotStoreSource database, OutboxDrain drain, HotStockLoader loader,
            TaskScheduler scheduler, java.time.Clock clock, JournalProgress journal, Duration takeoverDelay,
            Duration journalWaitMax, io.micrometer.core.instrument.MeterRegistry meters) {
        super(scheduler, REFRESH_INTERVAL);
        this.takeovers = io.micrometer.core.instrument.Counter.builder("stockguard.hot.takeovers")
                .description("SKUs this instance took from the hot store for the database path to serve")
                .register(meters);
        this.journal = journal;
        this.takeoverDelay = takeoverDelay;
        this.journalWaitMax = journalWaitMax;
        this.breaker = breaker;
        this.clock = clock;
        this.database = database;
        this.drain = drain;
        this.loader = loader;
        this.scheduler = scheduler;
    }

    /** Redis is worth trying: the breaker is closed, or half-open and probing. */
    boolean hotUsable() {
        return breaker.getState() != CircuitBreaker.State.OPEN
                && breaker.getState() != CircuitBreaker.State.FORCED_OPEN;
    }

    /**
     * The hot store may serve a request for these SKUs. A request for a SKU this instance is
     * rebuilding waits for the rebuild (briefly) instead of going to the database path: a sale
     * there would take the SKU from the hot store again the moment it was given back.
     */
    boolean hotFor(Collection<SkuId> skus) {
        if (!hotUsable()) {
            return false;
        }
        for (SkuId sku : skus) {
            if (invalid.contains(sku) && !awaitRebuild(sku)) {
                return false;
            }
        }
        return true;
    }

    private boolean awaitRebuild(SkuId sku) {
        java.util.concurrent.CountDownLatch running = rebuilding.get(sku);
        if (running == null) {
            return false;
        }
        try {
            running.await(REBUILD_WAIT_MAX.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return !invalid.contains(sku);
    }

    /** The database path is about to sell these SKUs: the hot store must not serve them until rebuilt. */
    void servedByDatabase(Collection<SkuId> skus) {
        for (SkuId sku : skus) {
            if (invalid.add(sku)) {
                takeovers.increment();
                database.markInvalid(sku, clock.instant());
                log.warn("SKU {} is served by the database until the hot store is rebuilt from it", sku);
            }
        }
    }

    /**
     * The database refused the hot store's changes of this SKU as impossible (a reused sequence:
     * Redis lost writes; or a counter it would drive negative): the hot store's copy is not to be
     * trusted. The SKU is served by the database until it is rebuilt from it.
     */
    void distrust(SkuId sku, String why) {
        boolean first = invalid.add(sku);
        database.markInvalid(sku, clock.instant());
        if (first) {
            takeovers.increment();
            log.error("the hot store's copy of SKU {} is not trusted ({}); rebuilding it from the database", sku, why);
            scheduler.schedule(() -> rebuildSafely(sku), clock.instant());
        }
    }

    private void rebuildSafely(SkuId sku) {
        try {
            if (invalid.contains(sku) && hotUsable() && rebuild(sku)) {
                log.info("SKU {} rebuilt from the database; the hot store serves it again", sku);
            }
        } catch (RuntimeException e) {
            log.warn("rebuilding SKU {} failed; the next refresh tries again", sku, e);
        }
    }

    /** Drains a SKU's outbox into the database and reloads it from there under a new epoch. */
    boolean rebuild(SkuId sku) {
        java.util.concurrent.CountDownLatch mine = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch running = rebuilding.putIfAbsent(sku, mine);
        if (running != null) {
            // Another thread of this instance is at it: its outcome is ours.
            try {
                running.await(REBUILD_WAIT_MAX.multipliedBy(10).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return !invalid.contains(sku);
        }
        try {
            if (!settled(sku)) {
                return false;
            }
            for (int attempt = 0; attempt < 5; attempt++) {
                drain.drain(sku);
                if (!journal.awaitApplied(sku, journalWaitMax)) {
                    log.info("SKU {} is not rebuilt yet: its journal is still being applied", sku);
                    return false;
                }
                HotStockLoader.Loaded loaded = loader.rebase(sku);
                if (loaded == HotStockLoader.Loaded.LOADED || loaded == HotStockLoader.Loaded.UNKNOWN_SKU) {
                    invalid.remove(sku);
                    return true;
                }
            }
            return false;
        } finally {
            rebuilding.remove(sku);
            mine.countDown();
        }
    }

    /**
     * Whether no instance can still be selling the SKU from the hot store: always with the
     * synchronous journal (the database fences late sales); with Kafka, once the takeover delay
     * has passed since the SKU was taken over, so that no sale can reach Kafka after the journal
     * was drained for the rebuild.
     */
    private boolean settled(SkuId sku) {
        if (takeoverDelay.isZero()) {
            return true;
        }
        var ownership = database.ownership(sku);
        if (ownership.isEmpty() || ownership.get().valid() || ownership.get().invalidSince() == null) {
            return ownership.isEmpty();
        }
        return !clock.instant().isBefore(ownership.get().invalidSince().plus(takeoverDelay));
    }

    /**
     * An operator's rebuild: the SKU is taken from the hot store first (so that every instance
     * stops selling it there), then rebuilt as soon as that has settled; false when it could not
     * be rebuilt within the settling time and a journal wait.
     */
    boolean rebuildNow(SkuId sku) {
        invalid.add(sku);
        database.markInvalid(sku, clock.instant());
        long deadline = System.nanoTime() + takeoverDelay.plus(journalWaitMax).plusSeconds(1).toNanos();
        while (!settled(sku)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
        return rebuild(sku);
    }

    private void refresh() {
        try {
            List<SkuId> current = database.invalid(REBUILDS_PER_REFRESH_MAX);
            invalid.retainAll(current);
            invalid.addAll(current);
            if (!hotUsable() || current.isEmpty()) {
                return;
            }
            for (SkuId sku : current) {
                if (rebuild(sku)) {
                    log.info("SKU {} rebuilt from the database; the hot store serves it again", sku);
                }
            }
        } catch (RuntimeException e) {
            log.warn("refreshing the hot store's invalid SKUs failed; retrying in {}", REFRESH_INTERVAL, e);
        }
    }

    @Override
    protected void runOnce() {
        refresh();
    }
}
