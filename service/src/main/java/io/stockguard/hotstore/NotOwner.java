package io.stockguard.hotstore;

import io.stockguard.stock.SkuId;
import java.util.Optional;

/**
 * A script would not act for the caller's epoch: the hot store lost the SKU ({@code NOT_LOADED}),
 * holds a copy loaded under another Redis history ({@code NOT_LOADED HISTORY}, see
 * {@code history.lua}), or is at another epoch ({@code STALE <epoch>}). Either way the caller takes
 * the SKU over from the epoch it believed in.
 *
 * @param epochLoaded the epoch of the copy the hot store has, when it is at another one; else 0
 */
record NotOwner(long epochLoaded, boolean otherHistory) {

    /** The reply's refusal to act for the caller's epoch, if that is what it is. */
    static Optional<NotOwner> of(Reply reply) {
        if (reply.is("STALE")) {
            return Optional.of(new NotOwner(reply.number(1), false));
        }
        if (reply.is("NOT_LOADED")) {
            return Optional.of(new NotOwner(0, reply.size() > 1 && "HISTORY".equals(reply.string(1))));
        }
        return Optional.empty();
    }

    /** Why the hot store is not the owner at {@code epoch}, for the take-over's log. */
    String why(long epoch) {
        if (epochLoaded > 0) {
            return "the hot store has epoch " + epochLoaded + ", not " + epoch;
        }
        if (otherHistory) {
            return "its copy in the hot store was loaded under another Redis history (a failover or a restart since): "
                    + "it may lack acknowledged changes";
        }
        return "the hot store lost it";
    }

    /** The take-over this refusal calls for. */
    StaleOwner takeOver(SkuId sku, long epoch) {
        return StaleOwner.refusedBy(this, sku, epoch);
    }
}
