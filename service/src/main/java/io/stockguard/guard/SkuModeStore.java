package io.stockguard.guard;

import io.stockguard.platform.Actor;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Instant;
import java.util.Optional;

/**
 * Where the mode a reservation checks is kept: the bucket rows in the database tier, the hot
 * store in the Redis tier. Implemented by the ledger that enforces it.
 */
public interface SkuModeStore {

    /**
     * Sets the mode inside the caller's transaction and returns the change, or empty when the SKU
     * does not exist. When this returns and the transaction commits, the mode is in force.
     */
    Optional<SkuModeChanged> setMode(SkuId skuId, SkuMode mode, int throttleRatePerSecond, String reason, Actor actor,
            Instant at);

    /**
     * The SKU's mode, read under the SKU's lock inside the caller's transaction (so that a change
     * made after it in the same transaction acts on what it read); empty when the SKU does not exist.
     */
    Optional<ModeState> lockMode(SkuId skuId);

    /** How many SKUs are in each mode other than NORMAL now (a mode no SKU is in is left out). */
    java.util.Map<SkuMode, Long> skusOutOfNormal();

    /**
     * Whether THROTTLED is enforced. The hot store enforces it cluster-wide inside the reserve
     * script; the database ledger does not, so a throttle there would be a promise not kept.
     */
    default boolean enforcesThrottle() {
        return false;
    }
}
