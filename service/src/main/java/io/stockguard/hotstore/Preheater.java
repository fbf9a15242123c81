package io.stockguard.hotstore;

import io.stockguard.platform.Backoff;
import io.stockguard.platform.Caller;
import io.stockguard.hotstore.HotStore;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.reservation.Ownership;
import io.stockguard.reservation.OwnershipStore;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads every SKU into the hot store before a sale, the way the post-mortem fixed it:
 * pipelined batches (200 SKUs), a pause between batches (50 ms), over the service's one
 * connection, and when Redis refuses or stalls it backs off and resumes where it stopped instead
 * of piling retries onto a struggling server. SKUs already loaded are left as they are.
 */
final class Preheater {

    private static final Logger log = LoggerFactory.getLogger(Preheater.class);
    private static final Duration BACKOFF_FIRST = Duration.ofMillis(100);
    /** A preheat that keeps failing stops after this many consecutive failed attempts at one batch. */
    private static final int ATTEMPTS_PER_BATCH_MAX = 30;

    private final HotStockLoader loader;
    private final HotStoreSource database;
    private final OwnershipStore owners;
    private final RedisProperties.Preheat settings;
    private final Clock clock;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("stockguard-preheat").factory());
    private volatile HotStore.PreheatStatus status = HotStore.PreheatStatus.idle();

    Preheater(HotStockLoader loader, HotStoreSource database, OwnershipStore owners,
            RedisProperties.Preheat settings, Clock clock) {
        this.loader = loader;
        this.database = database;
        this.owners = owners;
        this.settings = settings;
        this.clock = clock;
    }

    synchronized HotStore.PreheatStatus start(Caller caller) {
        if (status.state().equals("RUNNING")) {
            return status;
        }
        status = new HotStore.PreheatStatus("RUNNING", 0, 0, 0, 0, 0, clock.instant(), null, null);
        log.info("preheat started by {}", caller.actor());
        worker.execute(this::run);
        return status;
    }

    HotStore.PreheatStatus status() {
        return status;
    }

    private void run() {
        String after = "";
        try {
            while (true) {
                List<SkuId> page = database.page(after, settings.batchSize());
                if (page.isEmpty()) {
                    break;
                }
                loadWithRetries(page);
                after = page.getLast().value();
                LockSupport.parkNanos(settings.pause().toNanos());
            }
            finish("DONE", null);
        } catch (RuntimeException e) {
            log.error("preheat stopped", e);
            finish("FAILED", e.getMessage());
        }
    }

    /**
     * Loads one page, retrying what failed (a whole batch the database or Redis refused, or the
     * SKUs whose loads timed out on a busy Redis) after a backoff; the page is counted once, with
     * what still failed after the last attempt. A page of which nothing could be loaded, attempt
     * after attempt, stops the preheat: Redis is down, not busy.
     *
     * <p>Not Resilience4j's {@code Retry}: each attempt takes only the SKUs the one before left, the
     * page's counts add up across attempts, and the progress shown on the console changes between
     * them. The waits are its jittered backoff ({@link Backoff}).
     */
    private void loadWithRetries(List<SkuId> page) {
        Backoff backoff = new Backoff(BACKOFF_FIRST, settings.retryBackoffMax());
        List<SkuId> left = page;
        long loaded = 0;
        long present = 0;
        long refused = 0;
        String lastError = null;
        for (int attempt = 1; ; attempt++) {
            try {
                Batch batch = loadBatch(left);
                loaded += batch.loaded();
                present += batch.present();
                refused += batch.refused();
                left = batch.failed();
                lastError = batch.error();
            } catch (RuntimeException e) {
                lastError = e.getMessage();
                if (attempt >= ATTEMPTS_PER_BATCH_MAX && loaded + present == 0) {
                    throw e;
                }
            }
            if (left.isEmpty() || attempt >= ATTEMPTS_PER_BATCH_MAX) {
                break;
            }
            HotStore.PreheatStatus s = status;
            status = new HotStore.PreheatStatus(s.state(), s.total(), s.loaded(), s.present(), s.failed(),
                    s.retries() + 1, s.startedAt(), null, lastError);
            Duration wait = backoff.after(attempt);
            log.warn("preheat: {} SKUs of a batch not loaded ({}); retrying them in {}", left.size(), lastError,
                    wait);
            LockSupport.parkNanos(wait.toNanos());
        }
        HotStore.PreheatStatus s = status;
        status = new HotStore.PreheatStatus(s.state(), s.total() + page.size(), s.loaded() + loaded,
                s.present() + present, s.failed() + refused + left.size(), s.retries(), s.startedAt(), null,
                left.isEmpty() ? s.lastError() : lastError);
        if (!left.isEmpty() && loaded + present == 0) {
            throw new RedisGateway.HotStoreUnavailable("no SKU of the batch could be loaded: " + lastError, null);
        }
    }

    /**
     * One attempt at a batch: how many were loaded or already there, the SKUs whose load Redis
     * failed (worth another attempt), and those it could not take for another reason (a drain
     * under way: counted as failed, not retried).
     */
    private record Batch(long loaded, long present, List<SkuId> failed, long refused, String error) {
    }

    /**
     * One batch: the SKUs the database owns are loaded, every load sent before any reply is
     * awaited, and become the hot store's (one transaction for the batch, see
     * {@link OwnershipStore#load}). SKUs the hot store owns already are left as they are.
     */
    private Batch loadBatch(List<SkuId> page) {
        List<SkuId> failedInRedis = new ArrayList<>();
        java.util.concurrent.atomic.AtomicReference<String> error = new java.util.concurrent.atomic.AtomicReference<>();
        // An operator's preheat loads SKUs taken over a moment ago too: it is asked for, not automatic.
        List<OwnershipStore.Loaded> outcomes = owners.load(page, clock.instant(), Duration.ZERO, sources -> {
            failedInRedis.clear();
            List<CompletableFuture<HotStockLoader.Loaded>> sent = new ArrayList<>();
            sources.forEach(source -> sent.add(loader.send(source)));
            java.util.Set<SkuId> loaded = new java.util.HashSet<>();
            for (int i = 0; i < sent.size(); i++) {
                try {
                    if (sent.get(i).join() == HotStockLoader.Loaded.LOADED) {
                        loaded.add(sources.get(i).skuId());
                    }
                } catch (RuntimeException e) {
                    failedInRedis.add(sources.get(i).skuId());
                    error.set(e.getMessage());
                    log.debug("preheat of SKU {} failed in Redis: {}", sources.get(i).skuId(), e.getMessage());
                }
            }
            return loaded;
        });
        long loaded = outcomes.stream().filter(OwnershipStore.Loaded::loaded).count();
        long present = outcomes.stream().filter(o -> !o.loaded() && o.found() instanceof Ownership.Hot).count();
        long refused = outcomes.size() - loaded - present - failedInRedis.size();
        return new Batch(loaded, present, List.copyOf(failedInRedis), refused, error.get());
    }

    private void finish(String state, String error) {
        HotStore.PreheatStatus s = status;
        status = new HotStore.PreheatStatus(state, s.total(), s.loaded(), s.present(), s.failed(), s.retries(),
                s.startedAt(), clock.instant(), error == null ? s.lastError() : error);
        log.info("preheat {}: {} SKUs, {} loaded, {} already present, {} failed, {} retries", state, s.total(),
                s.loaded(), s.present(), s.failed(), s.retries());
    }
}
