package io.stockguard.hotstore;

import io.stockguard.reservation.Ownership;
import io.stockguard.stock.SkuId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a request for some SKUs goes: to the hot store at the epochs that own them (a SKU the
 * database owns is loaded first, while Redis is usable), to the database when it owns every one,
 * or nowhere yet while a SKU changes hands. A SKU whose hot store has lost Redis or its replicas is
 * taken over by the database on the way.
 */
final class RequestRouter {

    private static final String SHORT_OF_REPLICAS = "Redis has fewer replicas than stockguard.redis.wait-replicas "
            + "asks for";

    private final RedisGateway redis;
    private final OwnershipView view;
    private final HandOver handOver;
    private final ReplicaAcknowledgement replicas;
    /** The journal applies changes to the database after they are acknowledged (both Redis tiers). */
    private final boolean journalBehind;

    RequestRouter(RedisGateway redis, OwnershipView view, HandOver handOver, ReplicaAcknowledgement replicas,
            boolean journalBehind) {
        this.redis = redis;
        this.view = view;
        this.handOver = handOver;
        this.replicas = replicas;
        this.journalBehind = journalBehind;
    }

    /** Where a request goes: the hot store at these epochs, the database, or nowhere yet. */
    sealed interface Route {
        record Hot(Map<SkuId, Long> epochs) implements Route {
        }

        /** @param owned at least one of the SKUs is one the database owns (not merely unknown) */
        record Database(boolean owned) implements Route {
        }

        record Wait(String why) implements Route {
        }
    }

    Route route(List<SkuId> skus) {
        boolean redisUp = redis.reachable();
        if (skus.isEmpty()) {
            // An order nobody knows (a cancel before its reserve): the hot store keeps the
            // tombstone where a later reservation looks first, and the database a copy of it.
            if (redisUp) {
                return new Route.Hot(Map.of());
            }
            // With a journal applied behind the database cannot keep it alone: the hot store, back, would not see it and
            // sell the order (I7), and the database, learning of that sale later, would apply it onto
            // its tombstone. Nor does it know every order the hot store acknowledged. The synchronous
            // journal refuses such a sale itself, so there the database may answer.
            return journalBehind ? new Route.Wait("Redis is unreachable, and an order the database does not know "
                    + "may be one the hot store holds, or will be asked to; retry once Redis is back")
                    : new Route.Database(false);
        }
        Map<SkuId, Long> epochs = new LinkedHashMap<>();
        int owned = 0;
        for (SkuId sku : skus) {
            Optional<Ownership> owner = redisUp ? ensureHot(sku) : view.get(sku);
            if (owner.isEmpty()) {
                continue;
            }
            if (owner.get() instanceof Ownership.Hot h && (!redisUp || replicas.missing())) {
                owner = handOver.takeOver(sku, h.epoch(), redisUp ? SHORT_OF_REPLICAS : "Redis is unavailable");
            }
            if (owner.orElseThrow() instanceof Ownership.Draining) {
                owner = handOver.finish(sku);
            }
            switch (owner.orElseThrow()) {
                case Ownership.Hot h -> epochs.put(sku, h.epoch());
                case Ownership.Database d -> owned++;
                case Ownership.Draining d -> {
                    return new Route.Wait("SKU " + sku + " is being handed over from the hot store of epoch "
                            + d.epoch() + " (within " + handOver.handOverTime().toSeconds() + " s)");
                }
            }
        }
        if (epochs.isEmpty()) {
            return new Route.Database(owned > 0);
        }
        if (owned > 0) {
            // Some SKUs are the hot store's and some the database's: Redis failed to load them.
            return new Route.Wait("the SKUs " + skus + " are owned by different stores right now");
        }
        return new Route.Hot(epochs);
    }

    /**
     * Hands the request's SKUs to the database when a replica wait came back short during it: the
     * answer stands, and the next requests are sold by the database until Redis has its replicas.
     */
    <T> T degradeIfShortOfReplicas(Route.Hot route, T outcome) {
        if (replicas.missing()) {
            route.epochs().forEach((sku, epoch) -> handOver.takeOver(sku, epoch, SHORT_OF_REPLICAS));
        }
        return outcome;
    }

    /** The SKU's owner after loading it into the hot store if the database owned it (and the load worked). */
    private Optional<Ownership> ensureHot(SkuId sku) {
        try {
            return handOver.ensureHot(sku);
        } catch (RedisGateway.HotStoreUnavailable e) {
            return view.get(sku);
        }
    }
}
