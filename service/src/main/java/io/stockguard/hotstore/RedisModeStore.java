package io.stockguard.hotstore;

import io.stockguard.guard.ModeState;
import io.stockguard.guard.SkuModeChanged;
import io.stockguard.guard.SkuModeStore;
import io.stockguard.platform.Actor;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.ProblemCode;
import io.stockguard.reservation.Ownership;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A SKU's mode in the Redis tiers: set in the database (the source of truth, what the database
 * path and the journal check) and, for a SKU the hot store owns, in the hot store too (what every
 * reservation checks, on every instance, from the moment it is set). When Redis cannot take it,
 * the SKU is taken from the hot store: nobody sells it until the database, which has the mode,
 * does. Either way the freeze is in force when this returns (I6).
 */
final class RedisModeStore implements SkuModeStore {

    private final SkuModeStore database;
    private final RedisGateway redis;
    private final OwnershipView view;
    private final HandOver handOver;

    RedisModeStore(SkuModeStore database, RedisGateway redis, OwnershipView view, HandOver handOver) {
        this.database = database;
        this.redis = redis;
        this.view = view;
        this.handOver = handOver;
    }

    @Override
    public Optional<SkuModeChanged> setMode(SkuId skuId, SkuMode mode, int throttleRatePerSecond, String reason,
            Actor actor, Instant at) {
        Optional<SkuModeChanged> changed = database.setMode(skuId, mode, throttleRatePerSecond, reason, actor, at);
        if (changed.isEmpty() || !(view.reread(skuId).orElse(null) instanceof Ownership.Hot hot)) {
            // The database owns it (or it is changing hands): the database's mode is the one that counts.
            return changed;
        }
        try {
            Reply reply = new Reply(redis.run(Script.SET_MODE, List.of(Keys.meta(skuId)), List.of(mode.name(),
                    Integer.toString(throttleRatePerSecond), Long.toString(hot.epoch()))));
            if (!reply.is("OK")) {
                handOver.takeOver(skuId, hot.epoch(), "its hot store could not take the mode " + mode + " ("
                        + reply.whyNot(hot.epoch()) + ")");
            }
        } catch (RedisGateway.HotStoreUnavailable e) {
            if (mode == SkuMode.THROTTLED) {
                // The database path enforces no rate: a throttle accepted now would be a promise
                // not kept. The caller's transaction rolls back.
                throw new ApiProblemException(ProblemCode.UNAVAILABLE, "Redis is unreachable, and only Redis "
                        + "enforces a throttle: nothing was changed. Freeze the SKU instead, or retry when Redis "
                        + "is back.", Map.of("skuId", skuId.value()));
            }
            handOver.takeOver(skuId, hot.epoch(), "Redis could not take the mode " + mode);
        }
        return changed;
    }

    @Override
    public Optional<ModeState> lockMode(SkuId skuId) {
        return database.lockMode(skuId);
    }

    @Override
    public Map<SkuMode, Long> skusOutOfNormal() {
        return database.skusOutOfNormal();
    }

    /** The reserve script enforces a THROTTLED SKU's rate for every instance at once. */
    @Override
    public boolean enforcesThrottle() {
        return true;
    }
}
