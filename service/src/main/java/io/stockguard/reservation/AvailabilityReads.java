package io.stockguard.reservation;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What a product page shows, at most {@code maxAge} old: the flash sale's second wave (shoppers who
 * failed refreshing the page, 2.3 times the first wave's rate) is answered from what this instance
 * read a moment ago instead of one store read per query.
 *
 * <p>Two promises, both tested:
 * <ul>
 * <li><b>Bounded staleness.</b> An answer comes from a store read that <em>began</em> at most
 *     {@code maxAge} before the query arrived, so it shows the stock as it was at some moment no
 *     older than that: a SKU sold out through any instance reads sold out on every instance within
 *     {@code maxAge} plus one read.</li>
 * <li><b>Read your writes on this instance.</b> A change made through this instance's API
 *     ({@link #changed}) is seen by every query that arrives after it was acknowledged. This is not
 *     a matter of time: every change takes a number from one counter, every store read notes the
 *     counter when it begins, and a read that began before a change of its SKU is never kept after
 *     it (it may or may not have seen the change).</li>
 * </ul>
 *
 * <p>Queries of one SKU that find nothing fresh share one store read when one is under way and
 * fresh enough to answer them, so a product page read by thousands at once costs the store one read
 * per {@code maxAge} at most while no change of the SKU goes through this instance. A {@code maxAge}
 * of zero reads the store for every query.
 */
public final class AvailabilityReads {

    /** SKUs kept at most; past it everything is forgotten (a sale reads few SKUs, a crawl many). */
    static final int SKUS_MAX = 10_000;
    /**
     * How long a query waits for a store read another query began before it reads for itself: the
     * store's own timeouts end a read sooner, so this only bounds a read that hangs.
     */
    static final Duration SHARED_READ_WAIT_MAX = Duration.ofSeconds(5);

    /** A store read: what it found (empty: no such SKU), the counter and the time when it began. */
    private record Kept(Optional<SkuStockView> view, long since, long beganAtNanos) {
    }

    /**
     * What is known of a SKU: the number of its last change through this instance (0: none since it
     * was last forgotten) and its last store read begun after that change, if any.
     */
    private record Known(long lastChange, Kept kept) {
    }

    /** A store read under way, for queries that may share it. */
    private record Pending(long since, long beganAtNanos, CompletableFuture<Optional<SkuStockView>> found) {
    }

    private final Function<SkuId, Optional<SkuStockView>> store;
    /** Queries answered from a kept read, from a read another query began, and by a read of their own. */
    private final Counter fromKept;
    private final Counter fromShared;
    private final Counter fromStore;
    private final long maxAgeNanos;
    private final LongSupplier nanoTime;
    private final long sharedReadWaitNanos;
    /** Numbers every change of this instance and marks when each store read began. */
    private final AtomicLong changes = new AtomicLong();
    /** Reads that began before this number are not kept: set when everything is forgotten at once. */
    private volatile long keptFrom;
    private final ConcurrentHashMap<SkuId, Known> skus = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<SkuId, Pending> pending = new ConcurrentHashMap<>();

    public AvailabilityReads(Function<SkuId, Optional<SkuStockView>> store, Duration maxAge, MeterRegistry meters) {
        this(store, maxAge, meters, System::nanoTime, SHARED_READ_WAIT_MAX);
    }

    AvailabilityReads(Function<SkuId, Optional<SkuStockView>> store, Duration maxAge, MeterRegistry meters,
            LongSupplier nanoTime, Duration sharedReadWaitMax) {
        if (maxAge.isNegative()) {
            throw new IllegalArgumentException("maxAge must not be negative: " + maxAge);
        }
        this.store = store;
        this.fromKept = answered(meters, "kept");
        this.fromShared = answered(meters, "shared");
        this.fromStore = answered(meters, "store");
        this.maxAgeNanos = maxAge.toNanos();
        this.nanoTime = nanoTime;
        this.sharedReadWaitNanos = sharedReadWaitMax.toNanos();
    }

    public Duration maxAge() {
        return Duration.ofNanos(maxAgeNanos);
    }

    /** The SKU's stock as a store read begun at most {@code maxAge} ago found it; empty: no such SKU. */
    public Optional<SkuStockView> get(SkuId sku) {
        long arrivedAt = nanoTime.getAsLong();
        Known known = skus.get(sku);
        if (known != null && known.kept() != null
                && fresh(known.kept().since(), known.kept().beganAtNanos(), sku, arrivedAt)) {
            fromKept.increment();
            return known.kept().view();
        }
        Pending under = pending.get(sku);
        if (under != null && fresh(under.since(), under.beganAtNanos(), sku, arrivedAt)) {
            Optional<Optional<SkuStockView>> shared = await(under);
            if (shared.isPresent()) {
                fromShared.increment();
                return shared.get();
            }
        }
        Optional<SkuStockView> found = read(sku);
        fromStore.increment();
        return found;
    }

    private static Counter answered(MeterRegistry meters, String from) {
        return Counter.builder("stockguard.availability.queries")
                .description("Product page stock queries, by what answered them: a kept read, a read under way, "
                        + "or a store read of their own")
                .tag("from", from)
                .register(meters);
    }

    /**
     * The SKUs changed through this instance: called after the change is in the store and before it
     * is acknowledged, so every query after the acknowledgement reads the store again.
     */
    public void changed(Collection<SkuId> changedSkus) {
        for (SkuId sku : changedSkus) {
            skus.put(sku, new Known(changes.incrementAndGet(), null));
        }
        bound();
    }

    /** A change whose SKUs are not known (its outcome is): nothing read before it is kept. */
    public void changedAll() {
        keptFrom = changes.incrementAndGet();
        skus.clear();
    }

    /**
     * Whether a read begun at {@code beganAtNanos} with the counter at {@code since} may answer a
     * query that arrived at {@code arrivedAt}: young enough, and no change of the SKU since it began.
     */
    private boolean fresh(long since, long beganAtNanos, SkuId sku, long arrivedAt) {
        if (arrivedAt - beganAtNanos > maxAgeNanos || since < keptFrom) {
            return false;
        }
        Known known = skus.get(sku);
        return known == null || known.lastChange() <= since;
    }

    private Optional<Optional<SkuStockView>> await(Pending under) {
        try {
            return Optional.of(under.found().get(sharedReadWaitNanos, TimeUnit.NANOSECONDS));
        } catch (ExecutionException | TimeoutException e) {
            // Its read failed or hangs: this query reads for itself and meets the failure as its own.
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Reads the store, sharing the read with queries that arrive meanwhile, and keeps what it found. */
    private Optional<SkuStockView> read(SkuId sku) {
        Pending mine = new Pending(changes.get(), nanoTime.getAsLong(), new CompletableFuture<>());
        // The newest read is the one to share; an older one still under way keeps its own queries.
        pending.put(sku, mine);
        try {
            Optional<SkuStockView> found = store.apply(sku);
            keep(sku, found, mine);
            mine.found().complete(found);
            return found;
        } catch (RuntimeException | Error e) {
            mine.found().completeExceptionally(e);
            throw e;
        } finally {
            pending.remove(sku, mine);
        }
    }

    /** Keeps what the read found unless the SKU changed since it began or a read begun later is kept. */
    private void keep(SkuId sku, Optional<SkuStockView> found, Pending read) {
        if (read.since() < keptFrom) {
            return;
        }
        Kept kept = new Kept(found, read.since(), read.beganAtNanos());
        skus.compute(sku, (key, current) -> {
            if (current == null) {
                return new Known(0, kept);
            }
            if (current.lastChange() > read.since()
                    || current.kept() != null && current.kept().beganAtNanos() - read.beganAtNanos() > 0) {
                return current;
            }
            return new Known(current.lastChange(), kept);
        });
        bound();
    }

    private void bound() {
        if (skus.size() > SKUS_MAX) {
            changedAll();
        }
    }
}
