package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.reservation.ReservationState;
import java.util.Locale;

/**
 * A settlement is allowed by the order's state machine ({@link ReservationState#after}), not by
 * the path the change came by: an order that moved on (expired before this confirm, say) refuses
 * it. A later line of the same settlement finds the order at the settlement's target and applies.
 * A retried settlement is not refused: its caller was answered when it first came. A confirm of a
 * line that reaches an order cancelled after it was sold is that line's own earlier step (another
 * line's confirm and cancel came first, by another partition): it applies, and the order stays
 * cancelled; the line's cancel follows it.
 */
final class SettlementRule {

    private SettlementRule() {
    }

    /** @param header the order's row, or null */
    static Verdict judge(StockEvent settlement, ReservationRows.Header header, Attempt attempt) {
        return judge(settlement, header, attempt, false);
    }

    /**
     * @param saleCancelWaits a cancel of this confirm's line, made after the line was sold, waits
     *     for it: the line was sold, whatever the order's row says (it may be the tombstone that
     *     cancel left when it overtook the reservation itself)
     */
    static Verdict judge(StockEvent settlement, ReservationRows.Header header, Attempt attempt,
            boolean saleCancelWaits) {
        ReservationState.Settlement kind = of(settlement.op());
        if (header == null || header.state().after(kind).isPresent() || header.state() == kind.target()
                || soldThenCancelled(kind, header)
                || (saleCancelWaits && kind == ReservationState.Settlement.CONFIRM
                        && header.state() == ReservationState.CANCELLED)) {
            return Verdict.PASS;
        }
        if (attempt == Attempt.RETRY) {
            return Verdict.NOT_YET;
        }
        return new Verdict.Refuse(EventOutcome.Reason.INVALID_TRANSITION, "order " + settlement.orderId() + " is "
                + header.state() + ": it cannot be " + kind.name().toLowerCase(Locale.ROOT) + "ed");
    }

    /** A confirm meeting an order that was confirmed, then cancelled: a late line of that confirm. */
    private static boolean soldThenCancelled(ReservationState.Settlement kind, ReservationRows.Header header) {
        return kind == ReservationState.Settlement.CONFIRM && header.state() == ReservationState.CANCELLED
                && header.confirmedAt() != null;
    }

    /** The settlement an operation makes; only confirm, cancel and expiry are settlements. */
    static ReservationState.Settlement of(StockOp op) {
        return switch (op) {
            case CONFIRM -> ReservationState.Settlement.CONFIRM;
            case CANCEL -> ReservationState.Settlement.CANCEL;
            case EXPIRE -> ReservationState.Settlement.EXPIRE;
            default -> throw new IllegalArgumentException(op + " is not a settlement");
        };
    }
}
