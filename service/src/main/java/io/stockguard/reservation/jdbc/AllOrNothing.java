package io.stockguard.reservation.jdbc;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.stock.OrderId;
import java.util.Map;

/**
 * The synchronous journal's callers hear the outcome before they answer, so an order's changes
 * apply all or none: an order one of whose changes an earlier pass over the batch refused is
 * refused whole, every change with that same refusal (recorded as an anomaly where it was made).
 * Changes without an order are not part of any.
 */
final class AllOrNothing {

    private final Map<OrderId, EventOutcome.Rejected> refusedOrders;

    AllOrNothing(Map<OrderId, EventOutcome.Rejected> refusedOrders) {
        this.refusedOrders = Map.copyOf(refusedOrders);
    }

    Verdict judge(StockEvent event) {
        if (event.orderId() != null && refusedOrders.containsKey(event.orderId())) {
            return new Verdict.Answer(refusedOrders.get(event.orderId()));
        }
        return Verdict.PASS;
    }
}
