package io.stockguard.hotstore;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.journal.JournalProgress;
import io.stockguard.platform.PeriodicWork;
import io.stockguard.reservation.Ownership;
import io.stockguard.reservation.OwnershipStore;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.TaskScheduler;

/**
 * Makes the ownership transitions that involve the hot store (see {@link Ownership}): loading a
 * SKU the database sells into the hot store, taking a SKU from a hot store that failed, lost it or
 * was found wrong, and finishing the drain that lets the database sell it. Each transition is
 * decided by {@link Ownership} and stored by {@link OwnershipStore}; this class does the Redis and
 * journal side of it, and a worker finishes drains on its own so that no SKU waits for a request.
 */
final class HandOver extends PeriodicWork {

    private static final Logger log = LoggerFactory.getLogger(HandOver.class);
    private static final Duration WORK_INTERVAL = Duration.ofMillis(250);
    /** Drains finished per run of the worker; more wait for the next. */
    private static final int DRAINS_PER_RUN_MAX = 200;
    /** How long the worker waits for one SKU's journal before it moves on to the next (it comes back). */
    private static final Duration WORKER_JOURNAL_WAIT = Duration.ofMillis(50);
    /**
     * The longest a request waits for another's load of the same SKU: a load takes one Redis
     * command and a few statements, so this is reached only by a load that is stuck.
     */
    private static final Duration OTHER_LOAD_WAIT_MAX = Duration.ofSeconds(5);

    private final OwnershipStore store;
    private final OwnershipView view;
    private final HotStockLoader loader;
    private final JournalProgress journal;
    private final Duration delay;
    private final Duration journalWaitMax;
    private final Duration reloadAfter;
    private final Clock clock;
    private final Counter takeovers;
    private final Counter loads;
    private final LoadAttempts attempts = new LoadAttempts();

    /**
     * @param delay how long after a take-over an instance may still sell from the hot store on what
     *     it last knew: zero when the journal fences at append (it refuses such a sale itself)
     */
    HandOver(OwnershipStore store, OwnershipView view, HotStockLoader loader, JournalProgress journal, Duration delay,
            Duration journalWaitMax, Duration reloadAfter, Clock clock, MeterRegistry meters, TaskScheduler scheduler) {
        super(scheduler, WORK_INTERVAL);
        this.reloadAfter = reloadAfter;
        this.store = store;
        this.view = view;
        this.loader = loader;
        this.journal = journal;
        this.delay = delay;
        this.journalWaitMax = journalWaitMax;
        this.clock = clock;
        this.takeovers = Counter.builder("stockguard.hot.takeovers")
                .description("SKUs this instance took from the hot store (HOT to DRAINING)").register(meters);
        this.loads = Counter.builder("stockguard.hot.loads")
                .description("SKUs this instance loaded into the hot store (DATABASE to HOT)").register(meters);
    }

    /**
     * Loads the SKU into the hot store if the database sells it now, and returns its ownership
     * after. The load is made while the database holds the SKU's row, and the SKU becomes the hot
     * store's only if Redis took it: a Redis failure leaves it with the database (and is thrown).
     * One request of this instance at a time tries, and not again for a while after Redis failed
     * it ({@link LoadAttempts}); the others wait for its load, not for the row it holds.
     */
    Optional<Ownership> ensureHot(SkuId sku) {
        return ensureHot(sku, reloadAfter, true);
    }

    private Optional<Ownership> awaitOtherLoad(LoadAttempts.Turn.Taken taken, SkuId sku) {
        try {
            taken.done().get(OTHER_LOAD_WAIT_MAX.toMillis(), TimeUnit.MILLISECONDS);
            return view.reread(sku);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty();
        }
    }

    /**
     * As {@link #ensureHot(SkuId)}, for an operator who asked for the hot store now: a rebuild is
     * not held back by the reload-after of the take-over it just made itself.
     */
    Optional<Ownership> ensureHotNow(SkuId sku) {
        return ensureHot(sku, Duration.ZERO, false);
    }

    /** @param takeTurns whether the load waits its turn ({@link LoadAttempts}); an operator's does not */
    private Optional<Ownership> ensureHot(SkuId sku, Duration reloadAfter, boolean takeTurns) {
        Optional<Ownership> known = view.get(sku);
        if (known.isEmpty() || !(known.get() instanceof Ownership.Database)) {
            return known;
        }
        if (!loader.mayLoad()) {
            // Redis still lacks the replicas wait-replicas asks for: the database goes on selling,
            // without a load holding the SKU's row while Redis is asked.
            return known;
        }
        if (!takeTurns) {
            return load(sku, reloadAfter);
        }
        LoadAttempts.Turn turn = attempts.claim(sku);
        if (turn instanceof LoadAttempts.Turn.Taken taken) {
            // Another request is loading it: wait for that load, not for the row it holds, and go
            // where it left the SKU. Bounded, in case it is stuck: the database owns the SKU until
            // a load commits, so selling it there meanwhile is safe.
            Optional<Ownership> after = awaitOtherLoad(taken, sku);
            return after.isPresent() ? after : known;
        }
        if (!(turn instanceof LoadAttempts.Turn.Mine mine)) {
            // Redis failed its last load a moment ago: the database sells it until the next try.
            return known;
        }
        Optional<Ownership> after;
        try {
            after = load(sku, reloadAfter);
        } catch (RuntimeException | Error e) {
            // Released on every way out: a claim left held would keep this instance from ever
            // loading the SKU again.
            Duration pause = mine.claim().failed();
            log.info("SKU {}: loading it into the hot store failed ({}); the database sells it, and the next load "
                    + "is tried in {} ms at the earliest", sku, e.getMessage(), pause.toMillis());
            throw e;
        }
        mine.claim().loaded();
        return after;
    }

    /** Loads the SKU under its row's lock (see {@link #ensureHot(SkuId)}); returns its ownership after. */
    private Optional<Ownership> load(SkuId sku, Duration reloadAfter) {
        List<OwnershipStore.Loaded> outcome = store.load(List.of(sku), clock.instant(), reloadAfter, sources -> {
            OwnershipStore.HotSource source = sources.getFirst();
            HotStockLoader.Loaded loaded = loader.load(source);
            if (loaded == HotStockLoader.Loaded.LOADED) {
                return Set.of(sku);
            }
            if (loaded == HotStockLoader.Loaded.NO_REPLICAS) {
                // stockguard.redis.wait-replicas: the database sells it until Redis has its replicas.
                log.debug("SKU {} stays with the database: Redis has fewer replicas than wait-replicas", sku);
                return Set.of();
            }
            // Redis holds a newer epoch than the database gives: only a database restored from an
            // older backup does that. It stays with the database, which sells it.
            log.error("SKU {}: the hot store has an epoch newer than {}; it is not loaded (restored database?)", sku,
                    source.epoch());
            return Set.of();
        });
        if (outcome.stream().anyMatch(OwnershipStore.Loaded::loaded)) {
            loads.increment();
            log.info("SKU {} loaded into the hot store", sku);
        }
        return view.reread(sku);
    }

    /** Takes the SKU from whichever hot store owns it now; see {@link #takeOver(SkuId, long, String)}. */
    Optional<Ownership> takeOverCurrent(SkuId sku, String why) {
        Optional<Ownership> now = view.reread(sku);
        return now.isPresent() && now.get() instanceof Ownership.Hot hot ? takeOver(sku, hot.epoch(), why) : now;
    }

    /**
     * Takes the SKU from the hot store of {@code epoch} (HOT to DRAINING), if that one still owns it;
     * when the journal fences at append the drain is finished as soon as the journal is applied.
     * Returns the ownership after.
     */
    Optional<Ownership> takeOver(SkuId sku, long epoch, String why) {
        Ownership.Step step = store.takeOver(sku, epoch, clock.instant());
        if (step instanceof Ownership.Moved moved) {
            takeovers.increment();
            log.warn("SKU {} taken from the hot store of epoch {}: {}", sku, moved.from().epoch(), why);
        }
        if (delay.isZero()) {
            return finish(sku, journalWaitMax);
        }
        return view.reread(sku);
    }

    /** Finishes the SKU's drain if it may be finished now; returns the ownership after. */
    Optional<Ownership> finish(SkuId sku) {
        return finish(sku, journalWaitMax);
    }

    private Optional<Ownership> finish(SkuId sku, Duration journalWait) {
        Ownership.Step step = store.finishDrain(sku, clock.instant(), delay, () -> journal.awaitApplied(sku,
                journalWait));
        if (step instanceof Ownership.Moved moved) {
            log.info("SKU {}: the hot store of epoch {} is drained; the database sells it", sku, moved.to().epoch());
        }
        return view.reread(sku);
    }

    /**
     * Waits (bounded) until the SKU can be loaded: its drain finished. For an operator's rebuild,
     * which would rather wait seconds than answer "try again".
     */
    Optional<Ownership> awaitDrained(SkuId sku, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        Optional<Ownership> now = finish(sku);
        while (now.isPresent() && now.get() instanceof Ownership.Draining && System.nanoTime() < deadline) {
            LockSupport.parkNanos(WORK_INTERVAL.toNanos());
            now = finish(sku);
        }
        return now;
    }

    /** The longest a take-over keeps a SKU from being sold with a healthy journal. */
    Duration handOverTime() {
        return delay.plus(journalWaitMax);
    }

    @Override
    protected void runOnce() {
        for (SkuId sku : view.draining(DRAINS_PER_RUN_MAX)) {
            try {
                finish(sku, WORKER_JOURNAL_WAIT);
            } catch (RuntimeException e) {
                log.warn("finishing the drain of SKU {} failed; retrying in {}", sku, WORK_INTERVAL, e);
            }
        }
    }
}
