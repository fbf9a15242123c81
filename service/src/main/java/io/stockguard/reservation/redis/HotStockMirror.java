package io.stockguard.reservation.redis;

import io.stockguard.reservation.BucketView;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the hot store in step with stock changes made in the database (create, restock, adjust),
 * and reads a SKU's live counters from it.
 */
final class HotStockMirror {

    private final RedisGateway redis;
    private final HotStoreRouting routing;

    HotStockMirror(RedisGateway redis, HotStoreRouting routing) {
        this.redis = redis;
        this.routing = routing;
    }

    /**
     * Mirrors a change the database made. Additions are added (restock.lua keeps the exact drift);
     * anything that lowers a bucket is a rebuild, since the hot store may have sold those units
     * meanwhile. Returns false when the hot store could not follow (the SKU must then be rebuilt).
     */
    boolean mirror(StockChangeOutcome.Changed changed) {
        SkuId sku = changed.after().skuId();
        if (changed.before() == null) {
            return true;
        }
        List<String> deltas = new ArrayList<>();
        boolean lowers = false;
        for (BucketView after : changed.after().buckets()) {
            long delta = after.available() - changed.before().buckets().get(after.bucket()).available();
            lowers |= delta < 0;
            deltas.add(Long.toString(Math.max(delta, 0)));
        }
        try {
            if (lowers) {
                return routing.rebuild(sku);
            }
            Reply reply = new Reply(redis.run(Script.RESTOCK, List.of(Keys.meta(sku), Keys.buckets(sku)), deltas));
            return reply.is("OK") || reply.is("NOT_LOADED");
        } catch (RedisGateway.HotStoreUnavailable e) {
            return false;
        }
    }

    /** The stored view with the hot store's live counters and mode. */
    SkuStockView live(SkuStockView stored) {
        SkuId sku = stored.skuId();
        Reply snapshot = new Reply(redis.run(Script.SNAPSHOT, List.of(Keys.meta(sku), Keys.buckets(sku),
                Keys.outbox(sku)), List.of()));
        if (!snapshot.is("OK")) {
            return stored;
        }
        int n = (int) snapshot.number(3);
        List<BucketView> buckets = new ArrayList<>(n);
        for (int b = 0; b < n; b++) {
            int base = 5 + b * 5;
            buckets.add(new BucketView(b, snapshot.number(base), snapshot.number(base + 1),
                    snapshot.number(base + 2)));
        }
        return SkuStockView.of(sku, SkuMode.valueOf(snapshot.string(2)), stored.modeReason(), stored.modeChangedBy(),
                stored.modeChangedAt(), stored.safetyStock(), buckets);
    }
}
