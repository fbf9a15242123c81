package io.stockguard.reservation.redis;

import io.stockguard.guard.SkuModeChanged;
import io.stockguard.guard.SkuModeStore;
import io.stockguard.platform.Actor;
import io.stockguard.reservation.jdbc.HotStoreSource;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A SKU's mode in the Redis tiers: set in the database (the source of truth, and what the
 * database path and the journal check) and in the hot store (what every reservation checks, on
 * every instance, from the moment it is set). When Redis cannot take it, the SKU is marked
 * invalid for the hot store: it is then served by the database, which has the mode, until it is
 * rebuilt with it. Either way the freeze is in force when this returns (I6).
 */
final class RedisModeStore implements SkuModeStore {

    private final SkuModeStore database;
    private final RedisGateway redis;
    private final HotStoreSource source;
    private final HotStoreRouting routing;

    RedisModeStore(SkuModeStore database, RedisGateway redis, HotStoreSource source, HotStoreRouting routing) {
        this.database = database;
        this.redis = redis;
        this.source = source;
        this.routing = routing;
    }

    @Override
    public Optional<SkuModeChanged> setMode(SkuId skuId, SkuMode mode, int throttleRatePerSecond, String reason,
            Actor actor, Instant at) {
        Optional<SkuModeChanged> changed = database.setMode(skuId, mode, throttleRatePerSecond, reason, actor, at);
        if (changed.isPresent()) {
            try {
                redis.run(Script.SET_MODE, List.of(Keys.meta(skuId)), List.of(mode.name(),
                        Integer.toString(throttleRatePerSecond)));
            } catch (RedisGateway.HotStoreUnavailable e) {
                source.markInvalid(skuId, at);
                routing.servedByDatabase(List.of(skuId));
            }
        }
        return changed;
    }

    /** The reserve script enforces a THROTTLED SKU's rate for every instance at once. */
    @Override
    public boolean enforcesThrottle() {
        return true;
    }
}
