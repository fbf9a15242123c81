package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import java.util.HashSet;
import java.util.Set;

/**
 * A transfer moves stock between two buckets of a SKU as two events under one request id: when
 * the database refuses one half, the other is refused too, or the SKU would gain or lose the
 * stock in transit.
 */
final class TransferHalves {

    /** Request ids of transfers this batch refused a half of: at most one per event of the batch. */
    private final Set<String> refused = new HashSet<>();

    Verdict judge(StockEvent event) {
        if (transfer(event) && refused.contains(event.requestId())) {
            return new Verdict.Refuse(EventOutcome.Reason.WOULD_GO_NEGATIVE, "its other half was refused");
        }
        return Verdict.PASS;
    }

    /** The database refused this change: if it is half a transfer, the other half will be refused. */
    void refused(StockEvent event) {
        if (transfer(event)) {
            refused.add(event.requestId());
        }
    }

    private static boolean transfer(StockEvent event) {
        return (event.op() == StockOp.TRANSFER_OUT || event.op() == StockOp.TRANSFER_IN) && event.requestId() != null;
    }
}
