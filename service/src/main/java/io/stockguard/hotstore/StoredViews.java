package io.stockguard.hotstore;

import io.stockguard.reservation.SkuStockView;
import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What the view of a hot SKU takes from the database (why its mode was set and by whom, its safety
 * stock), kept for a second: a stock read of a hot SKU is then one Redis call instead of a Redis
 * call and a database query, and the second wave's product pages do not load the database the hot
 * store exists to relieve. Counters and the mode itself always come live from the hot store; only
 * those database-held details may be up to {@link #FRESH} old; a change of them made through this
 * instance (safety stock, terms), or a mode that no longer matches the live one, has them read
 * again at once.
 *
 * <p>When the database is slow or away (paused, failing over) the stock reads of hot SKUs must not
 * stall with it: the hot store still has every counter. Details older than {@link #FRESH} are
 * read again on a refresher thread, one read per SKU at a time; the stock read that starts it waits
 * at most {@link #REFRESH_WAIT} for it and otherwise answers with the details it has, however old,
 * while the refresh goes on; reads meanwhile answer at once with those details (a refresh that
 * held them all would stall every product page of a hot SKU once a second, measured at -14 % of
 * the reads over HTTP). Only a SKU never read before waits for the database.
 */
final class StoredViews {

    static final Duration FRESH = Duration.ofSeconds(1);
    /** How long a stock read waits for a refresh before it answers with the details it already has. */
    static final Duration REFRESH_WAIT = Duration.ofMillis(200);
    /** SKUs kept at most; past it the whole map is dropped (a sale reads few SKUs, a crawl many). */
    static final int SKUS_MAX = 10_000;
    /** Refreshes waiting for a refresher thread at most; past it a read answers with what it has. */
    private static final int REFRESHES_QUEUED_MAX = 1_000;
    private static final int REFRESHERS = 2;
    private static final Duration REFRESHER_IDLE_MAX = Duration.ofSeconds(30);

    /** A SKU's details and when the read that found them began; no view: forgotten at that time. */
    private record Kept(SkuStockView view, long readAtNanos) {
    }

    private final ConcurrentHashMap<SkuId, Kept> kept = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<SkuId, CompletableFuture<Optional<SkuStockView>>> refreshing =
            new ConcurrentHashMap<>();
    private final Function<SkuId, Optional<SkuStockView>> database;
    private final LongSupplier nanoTime;
    private final ThreadPoolExecutor refreshers = refreshers();

    StoredViews(Function<SkuId, Optional<SkuStockView>> database) {
        this(database, System::nanoTime);
    }

    StoredViews(Function<SkuId, Optional<SkuStockView>> database, LongSupplier nanoTime) {
        this.database = database;
        this.nanoTime = nanoTime;
    }

    Optional<SkuStockView> get(SkuId sku) {
        Kept found = kept.get(sku);
        if (found == null || found.view() == null) {
            // Nothing to answer with meanwhile (or what there was is forgotten): this read waits for the database.
            long startedAt = nanoTime.getAsLong();
            return remember(sku, database.apply(sku), startedAt);
        }
        if (nanoTime.getAsLong() - found.readAtNanos() < FRESH.toNanos()) {
            return Optional.of(found.view());
        }
        CompletableFuture<Optional<SkuStockView>> refresh = refresh(sku);
        if (refresh == null) {
            // A refresh is under way (this read is concurrent with it and may see what it replaces), or
            // the refreshers are full: waiting would stall every product page of the SKU at once.
            return Optional.of(found.view());
        }
        try {
            return refresh.get(REFRESH_WAIT.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // The database is slow or failing: the details as they were, with live counters, beat a stall.
            return Optional.of(found.view());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of(found.view());
        }
    }

    /** A refresh of the SKU started now; null when one is under way already or the refreshers are full. */
    private CompletableFuture<Optional<SkuStockView>> refresh(SkuId sku) {
        CompletableFuture<Optional<SkuStockView>> mine = new CompletableFuture<>();
        if (refreshing.putIfAbsent(sku, mine) != null) {
            return null;
        }
        try {
            refreshers.execute(() -> {
                Optional<SkuStockView> read;
                try {
                    long startedAt = nanoTime.getAsLong();
                    read = remember(sku, database.apply(sku), startedAt);
                } catch (RuntimeException e) {
                    refreshing.remove(sku, mine);
                    mine.completeExceptionally(e);
                    return;
                }
                // Out of the map before anyone hears of it, so the next stale read starts a new refresh.
                refreshing.remove(sku, mine);
                mine.complete(read);
            });
            return mine;
        } catch (RejectedExecutionException e) {
            refreshing.remove(sku, mine);
            return null;
        }
    }

    /**
     * Keeps what a read begun at {@code startedAt} found, unless something newer is kept: a read
     * begun later, or a {@link #forget} since (a refresh that began before a stock change must not
     * bring back the details the change replaced).
     */
    private Optional<SkuStockView> remember(SkuId sku, Optional<SkuStockView> read, long startedAt) {
        if (kept.size() >= SKUS_MAX) {
            kept.clear();
        }
        kept.compute(sku, (key, current) -> current != null && current.readAtNanos() > startedAt ? current
                : read.map(view -> new Kept(view, startedAt)).orElse(null));
        return read;
    }

    /** Whether a refresh of the SKU is under way (for tests: it has been kept or dropped once this is false). */
    boolean refreshing(SkuId sku) {
        return refreshing.containsKey(sku);
    }

    /** The SKU's details changed: the next read waits for the database, and no older read is kept after it. */
    void forget(SkuId sku) {
        kept.put(sku, new Kept(null, nanoTime.getAsLong()));
    }

    private static ThreadPoolExecutor refreshers() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(REFRESHERS, REFRESHERS, REFRESHER_IDLE_MAX.toMillis(),
                TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(REFRESHES_QUEUED_MAX),
                Thread.ofPlatform().name("stored-views-refresh-", 0).daemon().factory());
        // Idle refreshers end, so an instance whose ledger is replaced leaves no thread behind.
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
