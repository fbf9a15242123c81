package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.reservation.Ownership;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A change journaled by a hot store whose epoch does not own the SKU (see
 * {@link Ownership#acceptsHotChange}) was never acknowledged, so it is refused; a change the
 * database path made (no epoch) is its own. The other changes of an order with such a change in
 * the batch are refused with it, so that the order can be made again, whole, by the SKU's owner.
 */
final class OwnerFence {

    private final Map<SkuId, Ownership> owners;
    private final boolean journalBehind;
    /** Orders of the batch with a fenced change: at most as many as the batch has events. */
    private final Set<OrderId> fencedOrders = new HashSet<>();

    /**
     * @param owners the ownership of each SKU, read under the SKU's lock
     * @param journalBehind the change was acknowledged before it is applied (both Redis tiers'
     *     journals); false for one not yet acknowledged (the appended journal's fence)
     */
    OwnerFence(Map<SkuId, Ownership> owners, boolean journalBehind) {
        this.owners = owners;
        this.journalBehind = journalBehind;
    }

    /** Marks the orders of the batch that have a fenced change, before any of their changes is judged. */
    void fence(List<StockEvent> batch) {
        for (StockEvent event : batch) {
            if (event.orderId() != null && fenced(event)) {
                fencedOrders.add(event.orderId());
            }
        }
    }

    /** Refuses a fenced change as an anomaly; the other changes of its order quietly, the anomaly being its own. */
    Verdict judge(StockEvent event) {
        if (fenced(event)) {
            return new Verdict.Refuse(EventOutcome.Reason.FENCED, "the hot store of epoch " + event.epoch()
                    + " does not own the SKU (it is " + owners.get(event.skuId()) + ")");
        }
        if (event.orderId() != null && fencedOrders.contains(event.orderId())) {
            return new Verdict.Answer(new EventOutcome.Rejected(EventOutcome.Reason.FENCED,
                    "another line of its order was fenced"));
        }
        return Verdict.PASS;
    }

    private boolean fenced(StockEvent event) {
        if (event.epoch() == null) {
            return false;
        }
        Ownership owner = owners.get(event.skuId());
        return owner != null && !owner.acceptsHotChange(event.epoch(), journalBehind);
    }
}
