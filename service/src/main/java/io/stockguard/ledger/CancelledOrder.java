package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.reservation.ReservationState;
import io.stockguard.stock.SkuId;
import java.util.List;
import java.util.Map;

/**
 * A reservation of an order cancelled before the reservation reached the database (I7): the
 * synchronous journal refuses it to its caller; a journal applied after acknowledgement cannot
 * take it back, so applies it and records the anomaly. A retried reservation's caller was
 * answered when it first came: it is not judged again.
 */
final class CancelledOrder {

    private CancelledOrder() {
    }

    /**
     * @param header the order's row, or null
     * @param waitingOfOrder the order's settlements waiting for their reserve, by SKU
     * @param strict a change not yet acknowledged, whose caller hears the outcome
     */
    static Verdict judge(StockEvent reserve, ReservationRows.Header header,
            Map<SkuId, List<StockEvent>> waitingOfOrder, boolean strict, Attempt attempt) {
        if (header == null || header.state() != ReservationState.CANCELLED
                || attempt == Attempt.RETRY) {
            return Verdict.PASS;
        }
        // The cancel that left the tombstone overtook this very reserve: it waits for it.
        if (!waitingOfOrder.getOrDefault(reserve.skuId(), List.of()).isEmpty()) {
            return Verdict.PASS;
        }
        // A cancel of this order that overtook its reserve on another SKU (another partition) made
        // the tombstone: that is the order's own cancel in flight, not a reservation after a cancel.
        boolean ownCancelInFlight = !waitingOfOrder.isEmpty();
        if (strict) {
            return new Verdict.Answer(new EventOutcome.Rejected(EventOutcome.Reason.ORDER_CANCELLED, "order "
                    + reserve.orderId() + " was cancelled before this reservation reached the database"));
        }
        if (ownCancelInFlight) {
            return Verdict.PASS;
        }
        return new Verdict.Flag(EventOutcome.Reason.ORDER_CANCELLED,
                "an acknowledged reservation of a cancelled order; applied");
    }
}
