package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.stock.OrderId;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The synchronous journal's callers hear the outcome before they answer, so an order's changes
 * apply all or none: an order one of whose changes an earlier pass over the batch refused is
 * refused whole, every change with that same refusal (recorded as an anomaly where it was made).
 * Changes without an order are not part of any. {@link JournalApplier} finds such orders after a
 * pass ({@link #partlyRefused}) and decides the batch again with them refused, before anything is
 * written.
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

    /**
     * Orders some of whose changes in the batch were refused while others were not (a duplicate
     * is neither), with the first refusal of each; orders refused whole already are not counted.
     */
    static Map<OrderId, EventOutcome.Rejected> partlyRefused(List<StockEvent> events, List<EventOutcome> outcomes,
            Map<OrderId, EventOutcome.Rejected> already) {
        Map<OrderId, EventOutcome.Rejected> refused = new LinkedHashMap<>();
        Set<OrderId> accepted = new HashSet<>();
        for (int i = 0; i < events.size(); i++) {
            OrderId order = events.get(i).orderId();
            if (order == null || already.containsKey(order)) {
                continue;
            }
            if (outcomes.get(i) instanceof EventOutcome.Rejected rejected) {
                refused.putIfAbsent(order, rejected);
            } else if (outcomes.get(i) != EventOutcome.Settled.DUPLICATE) {
                accepted.add(order);
            }
        }
        refused.keySet().retainAll(accepted);
        return refused;
    }
}
