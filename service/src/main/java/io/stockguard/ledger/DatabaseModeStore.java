package io.stockguard.ledger;

import io.stockguard.guard.ModeState;
import io.stockguard.guard.SkuModeChanged;
import io.stockguard.guard.SkuModeStore;
import io.stockguard.platform.Actor;
import io.stockguard.platform.SqlStatements;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Where a SKU's mode (a freeze, a throttle) lives in the database: on the SKU's row, copied onto
 * each of its buckets so the reservation statements see it under the bucket's own lock. Guard
 * decides the mode; this only stores it, under the SKU's row lock, inside the caller's transaction.
 * On the Redis tiers the hot store's mode store wraps this one. (A record: it holds nothing but
 * the parts it writes through.)
 */
record DatabaseModeStore(JdbcTemplate jdbc, SqlStatements sql, SkuRows skus, BucketRows buckets)
        implements SkuModeStore {

    @Override
    public Optional<ModeState> lockMode(SkuId skuId) {
        return skus.lock(skuId).map(sku -> new ModeState(sku.mode(), sku.throttleRate(), sku.modeChangedBy()));
    }

    @Override
    public Map<SkuMode, Long> skusOutOfNormal() {
        Map<SkuMode, Long> counts = new EnumMap<>(SkuMode.class);
        jdbc.query(sql.get("skusOutOfNormal"), rs -> {
            counts.put(SkuMode.valueOf(rs.getString("mode")), rs.getLong("skus"));
        });
        return counts;
    }

    @Override
    public Optional<SkuModeChanged> setMode(SkuId skuId, SkuMode mode, int throttleRatePerSecond, String reason,
            Actor actor, Instant at) {
        Optional<SkuRows.Sku> sku = skus.lock(skuId);
        if (sku.isEmpty()) {
            return Optional.empty();
        }
        skus.setMode(skuId, mode, throttleRatePerSecond, reason, actor.toString(), at);
        buckets.setMode(skuId, mode);
        return Optional.of(new SkuModeChanged(skuId, sku.get().mode(), mode, reason, actor.toString(), at));
    }
}
