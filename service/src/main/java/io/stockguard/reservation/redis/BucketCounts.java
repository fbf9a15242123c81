package io.stockguard.reservation.redis;

import io.stockguard.reservation.jdbc.HotStoreSource;
import io.stockguard.stock.SkuId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

/**
 * A SKU's bucket count, read from the database once and then remembered: it never changes after
 * the SKU is created, and the hot path must not need the database for it (the full tier keeps
 * reserving while the database is down).
 */
final class BucketCounts implements ToIntFunction<SkuId> {

    /** Remembered SKUs; beyond this the memory is cleared and refilled as SKUs are asked for. */
    private static final int REMEMBERED_MAX = 1_000_000;

    private final HotStoreSource database;
    private final Map<SkuId, Integer> known = new ConcurrentHashMap<>();

    BucketCounts(HotStoreSource database) {
        this.database = database;
    }

    /** The bucket count, or 0 for a SKU the database does not have (not remembered: it may be created). */
    @Override
    public int applyAsInt(SkuId sku) {
        Integer count = known.get(sku);
        if (count != null) {
            return count;
        }
        int read = database.bucketCount(sku).orElse(0);
        if (read > 0) {
            if (known.size() >= REMEMBERED_MAX) {
                known.clear();
            }
            known.put(sku, read);
        }
        return read;
    }
}
