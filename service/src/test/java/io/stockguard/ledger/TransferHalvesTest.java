package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.change;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockOp;
import org.junit.jupiter.api.Test;

class TransferHalvesTest {

    private static final Verdict OTHER_HALF_REFUSED = new Verdict.Refuse(EventOutcome.Reason.WOULD_GO_NEGATIVE,
            "its other half was refused");

    private final TransferHalves halves = new TransferHalves();

    @Test
    void bothHalvesPassWhileNeitherWasRefused() {
        assertThat(halves.judge(change("e1", StockOp.TRANSFER_OUT, "t1", -3))).isEqualTo(Verdict.PASS);
        assertThat(halves.judge(change("e2", StockOp.TRANSFER_IN, "t1", 3))).isEqualTo(Verdict.PASS);
    }

    @Test
    void theOtherHalfOfARefusedHalfIsRefused() {
        halves.refused(change("e1", StockOp.TRANSFER_OUT, "t1", -3));

        assertThat(halves.judge(change("e2", StockOp.TRANSFER_IN, "t1", 3))).isEqualTo(OTHER_HALF_REFUSED);
        assertThat(halves.judge(change("e3", StockOp.TRANSFER_IN, "t2", 3))).as("another transfer")
                .isEqualTo(Verdict.PASS);
        assertThat(halves.judge(change("e4", StockOp.RESTOCK, "t1", 3))).as("no half of anything")
                .isEqualTo(Verdict.PASS);
    }

    @Test
    void aRefusedRestockOrATransferWithoutARequestIdRefusesNothingElse() {
        halves.refused(change("e1", StockOp.ADJUST, "t1", -3));
        halves.refused(change("e2", StockOp.TRANSFER_OUT, null, -3));

        assertThat(halves.judge(change("e3", StockOp.TRANSFER_IN, "t1", 3))).isEqualTo(Verdict.PASS);
        assertThat(halves.judge(change("e4", StockOp.TRANSFER_IN, null, 3))).isEqualTo(Verdict.PASS);
    }
}
