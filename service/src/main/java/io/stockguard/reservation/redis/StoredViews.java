package io.stockguard.reservation.redis;

import io.stockguard.reservation.SkuStockView;
import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What the view of a hot SKU takes from the database (why its mode was set and by whom, its safety
 * stock), kept for a second: a stock read of a hot SKU is then one Redis call instead of a Redis
 * call and a database query, and the second wave's product pages do not load the database the hot
 * store exists to relieve. Counters and the mode itself always come live from the hot store; only
 * those database-held details may be up to {@link #FRESH} old; a stock change made through this
 * instance, or a mode that no longer matches the live one, has them read again at once.
 */
final class StoredViews {

    static final Duration FRESH = Duration.ofSeconds(1);
    /** SKUs kept at most; past it the whole map is dropped (a sale reads few SKUs, a crawl many). */
    static final int SKUS_MAX = 10_000;

    private record Kept(SkuStockView view, long readAtNanos) {
    }

    private final ConcurrentHashMap<SkuId, Kept> kept = new ConcurrentHashMap<>();
    private final Function<SkuId, Optional<SkuStockView>> database;
    private final LongSupplier nanoTime;

    StoredViews(Function<SkuId, Optional<SkuStockView>> database) {
        this(database, System::nanoTime);
    }

    StoredViews(Function<SkuId, Optional<SkuStockView>> database, LongSupplier nanoTime) {
        this.database = database;
        this.nanoTime = nanoTime;
    }

    Optional<SkuStockView> get(SkuId sku) {
        long now = nanoTime.getAsLong();
        Kept found = kept.get(sku);
        if (found != null && now - found.readAtNanos() < FRESH.toNanos()) {
            return Optional.of(found.view());
        }
        Optional<SkuStockView> read = database.apply(sku);
        if (read.isPresent()) {
            if (kept.size() >= SKUS_MAX) {
                kept.clear();
            }
            kept.put(sku, new Kept(read.get(), now));
        } else {
            kept.remove(sku);
        }
        return read;
    }

    void forget(SkuId sku) {
        kept.remove(sku);
    }
}
