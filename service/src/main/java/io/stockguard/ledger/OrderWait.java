package io.stockguard.ledger;

import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservedLine;
import java.util.Optional;

/**
 * A settlement that overtook its reservation (they may travel in different partitions) waits for
 * it, as the order's, and the order reads as cancelled meanwhile so that nothing sells it again
 * (I7). The reserve, when it comes, applies the settlements that waited for it.
 */
final class OrderWait {

    private OrderWait() {
    }

    /** @param line the line the settlement settles, or null when its reserve has not applied */
    static Verdict judge(ReservedLine line, Attempt attempt) {
        if (line != null) {
            return Verdict.PASS;
        }
        return attempt == Attempt.RETRY ? Verdict.NOT_YET : new Verdict.Wait(Waiting.ORDER);
    }

    /**
     * A cancel of a sold line waits for the line's sale. The hot store journals a line's confirm
     * before its cancel, but they may reach the database by different ways (the confirm through
     * Kafka, the cancel through the database when Kafka failed a moment later): applied first, the
     * cancel would take back sold units the database still counts as reserved, and the confirm
     * would then be refused. The confirm, when it comes, applies the cancels that waited for it.
     *
     * @param lineSold whether the database has applied the line's confirm
     */
    static Verdict judgeSale(StockEvent settlement, boolean lineSold, Attempt attempt) {
        if (!cancelsASale(settlement) || lineSold) {
            return Verdict.PASS;
        }
        return attempt == Attempt.RETRY ? Verdict.NOT_YET : new Verdict.Wait(Waiting.ORDER);
    }

    /** A cancel that returns sold units: the hot store cancelled the line after its sale. */
    static boolean cancelsASale(StockEvent settlement) {
        return settlement.op() == StockOp.CANCEL && settlement.deltaSold() < 0;
    }

    /**
     * The row that makes the order of a waiting cancel or expiry read as cancelled, when the order
     * has none; a waiting confirm leaves none, since its order is being sold, not given up.
     *
     * @param header the order's row, or null
     */
    static Optional<ReservationRows.Header> tombstone(StockEvent settlement, ReservationRows.Header header) {
        if (header != null || settlement.op() == StockOp.CONFIRM) {
            return Optional.empty();
        }
        return Optional.of(new ReservationRows.Header(settlement.orderId(), ReservationState.CANCELLED,
                ReservationRows.TOMBSTONE, settlement.occurredAt(), null, null, settlement.occurredAt(),
                settlement.traceId() == null ? null : settlement.traceId().value()));
    }
}
