package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An order operation (the reserve, confirm, cancel or expiry of one line) applies once whichever
 * path made it (I3): one the database ledger applied before the hot store owned the SKU, say,
 * would otherwise be counted twice. The journal's record and a settlement stored as waiting
 * witness it when an event is first seen; the line itself witnesses a reserve on every attempt.
 */
final class OperationOnce {

    /** Operations as "order|sku|op": the journal's, the waiting ones, and those this batch claimed. */
    private final Set<String> claimed;

    /**
     * @param journaled the operations of the batch's orders in the journal, as "order|sku|op"
     * @param waitingForOrder settlements stored as waiting for their reserve: taken, if not applied yet
     */
    OperationOnce(Set<String> journaled, Map<OrderId, Map<SkuId, List<StockEvent>>> waitingForOrder) {
        claimed = new HashSet<>(journaled);
        waitingForOrder.values().forEach(bySku -> bySku.values().forEach(events -> events.forEach(e ->
                claimed.add(key(e)))));
    }

    /** Claims the event's operation of its order, unless it was taken already. */
    Verdict claim(StockEvent event) {
        if (event.orderId() != null && !claimed.add(key(event))) {
            return new Verdict.Refuse(EventOutcome.Reason.INVALID_TRANSITION,
                    "this operation of the order was already applied");
        }
        return Verdict.PASS;
    }

    /** @param reserved the line the reserve's order already has on its SKU, or null */
    static Verdict reserveOnce(ReservedLine reserved) {
        if (reserved != null) {
            return new Verdict.Refuse(EventOutcome.Reason.INVALID_TRANSITION, "a second reservation of the same line");
        }
        return Verdict.PASS;
    }

    private static String key(StockEvent event) {
        return event.orderId().value() + "|" + event.skuId().value() + "|" + event.op().name();
    }
}
