package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.A;
import static io.stockguard.ledger.JournalEvents.NOW;
import static io.stockguard.ledger.JournalEvents.header;
import static io.stockguard.ledger.JournalEvents.line;
import static io.stockguard.ledger.JournalEvents.settle;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.StockOp;
import io.stockguard.reservation.ReservationState;
import io.stockguard.ledger.Attempt;
import io.stockguard.stock.OrderId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class OrderWaitTest {

    @ParameterizedTest
    @EnumSource(Attempt.class)
    void aSettlementOfAReservedLinePasses(Attempt attempt) {
        assertThat(OrderWait.judge(line(A, 2), attempt)).isEqualTo(Verdict.PASS);
    }

    @Test
    void aSettlementThatOvertookItsReserveWaitsForTheOrder() {
        assertThat(OrderWait.judge(null, Attempt.FIRST)).isEqualTo(new Verdict.Wait(Waiting.ORDER));
    }

    @Test
    void aRetriedSettlementStillWithoutItsLineStaysAsItIs() {
        assertThat(OrderWait.judge(null, Attempt.RETRY)).isEqualTo(Verdict.NOT_YET);
    }

    @Test
    void aCancelOfASoldLineWaitsForTheLinesSaleUntilTheDatabaseHasIt() {
        var cancel = JournalEvents.cancelSold("e2", "o1", 2);
        assertThat(OrderWait.judgeSale(cancel, false, Attempt.FIRST)).isEqualTo(new Verdict.Wait(Waiting.ORDER));
        assertThat(OrderWait.judgeSale(cancel, false, Attempt.RETRY)).isEqualTo(Verdict.NOT_YET);
        assertThat(OrderWait.judgeSale(cancel, true, Attempt.FIRST)).isEqualTo(Verdict.PASS);
    }

    @ParameterizedTest
    @EnumSource(value = StockOp.class, names = {"CONFIRM", "CANCEL", "EXPIRE"})
    void settlementsOfReservedUnitsNeverWaitForASale(StockOp op) {
        assertThat(OrderWait.judgeSale(settle("e1", op, "o1", 2), false, Attempt.FIRST)).isEqualTo(Verdict.PASS);
    }

    @ParameterizedTest
    @EnumSource(value = StockOp.class, names = {"CANCEL", "EXPIRE"})
    void aWaitingCancelOrExpiryOfAnOrderWithoutARowLeavesATombstone(StockOp op) {
        assertThat(OrderWait.tombstone(settle("e1", op, "o1", 2), null)).hasValue(new ReservationRows.Header(
                OrderId.of("o1"), ReservationState.CANCELLED, ReservationRows.TOMBSTONE, NOW, null, null, NOW, null));
    }

    @Test
    void aWaitingConfirmLeavesNoTombstone() {
        assertThat(OrderWait.tombstone(settle("e1", StockOp.CONFIRM, "o1", 2), null)).isEmpty();
    }

    @Test
    void anOrderWithARowKeepsIt() {
        assertThat(OrderWait.tombstone(settle("e1", StockOp.CANCEL, "o1", 2),
                header("o1", ReservationState.RESERVED))).isEmpty();
    }
}
