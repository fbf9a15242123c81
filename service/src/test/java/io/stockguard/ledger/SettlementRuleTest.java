package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.header;
import static io.stockguard.ledger.JournalEvents.settle;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockOp;
import io.stockguard.reservation.ReservationState;
import io.stockguard.ledger.Attempt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class SettlementRuleTest {

    /** The order's state × the settlement: {@link ReservationState#after}, or a later line of the same settlement. */
    static Stream<Arguments> settlements() {
        return Stream.of(
                Arguments.of(ReservationState.RESERVED, StockOp.CONFIRM, true),
                Arguments.of(ReservationState.RESERVED, StockOp.CANCEL, true),
                Arguments.of(ReservationState.RESERVED, StockOp.EXPIRE, true),
                Arguments.of(ReservationState.CONFIRMED, StockOp.CANCEL, true),
                Arguments.of(ReservationState.CONFIRMED, StockOp.EXPIRE, false),
                Arguments.of(ReservationState.CANCELLED, StockOp.CONFIRM, false),
                Arguments.of(ReservationState.CANCELLED, StockOp.EXPIRE, false),
                Arguments.of(ReservationState.EXPIRED, StockOp.CONFIRM, false),
                Arguments.of(ReservationState.EXPIRED, StockOp.CANCEL, false),
                Arguments.of(ReservationState.CONFIRMED, StockOp.CONFIRM, true),
                Arguments.of(ReservationState.CANCELLED, StockOp.CANCEL, true),
                Arguments.of(ReservationState.EXPIRED, StockOp.EXPIRE, true));
    }

    @ParameterizedTest(name = "{1} of a {0} order: passes {2}")
    @MethodSource("settlements")
    void aSettlementTheOrdersStateDoesNotAllowIsAnInvalidTransition(ReservationState state, StockOp op,
            boolean passes) {
        Verdict verdict = SettlementRule.judge(settle("e1", op, "o1", 2), header("o1", state), Attempt.FIRST);

        assertThat(verdict).isEqualTo(passes ? Verdict.PASS : new Verdict.Refuse(
                EventOutcome.Reason.INVALID_TRANSITION, "order o1 is " + state + ": it cannot be "
                        + op.name().toLowerCase(java.util.Locale.ROOT) + "ed"));
    }

    @Test
    void aConfirmOfALineReachingAnOrderCancelledAfterItsSalePasses() {
        ReservationRows.Header soldThenCancelled = new ReservationRows.Header(io.stockguard.stock.OrderId.of("o1"),
                ReservationState.CANCELLED, "f", JournalEvents.NOW, null, JournalEvents.NOW, JournalEvents.NOW, null);

        assertThat(SettlementRule.judge(settle("e1", StockOp.CONFIRM, "o1", 2), soldThenCancelled, Attempt.FIRST))
                .isEqualTo(Verdict.PASS);
        assertThat(SettlementRule.judge(settle("e1", StockOp.EXPIRE, "o1", 2), soldThenCancelled, Attempt.FIRST))
                .isInstanceOf(Verdict.Refuse.class);
    }

    @Test
    void aConfirmWhoseLinesCancelOfTheSaleWaitsPassesEvenTheTombstoneThatCancelLeft() {
        ReservationRows.Header tombstone = new ReservationRows.Header(io.stockguard.stock.OrderId.of("o1"),
                ReservationState.CANCELLED, ReservationRows.TOMBSTONE, JournalEvents.NOW, null, null,
                JournalEvents.NOW, null);

        assertThat(SettlementRule.judge(settle("e1", StockOp.CONFIRM, "o1", 2), tombstone, Attempt.FIRST, true))
                .isEqualTo(Verdict.PASS);
        assertThat(SettlementRule.judge(settle("e1", StockOp.CONFIRM, "o1", 2), tombstone, Attempt.FIRST, false))
                .isInstanceOf(Verdict.Refuse.class);
    }

    @ParameterizedTest(name = "{1} of a {0} order, retried: passes {2}")
    @MethodSource("settlements")
    void aRetriedSettlementTheStateDoesNotAllowStaysAsItIs(ReservationState state, StockOp op, boolean passes) {
        Verdict verdict = SettlementRule.judge(settle("e1", op, "o1", 2), header("o1", state), Attempt.RETRY);

        assertThat(verdict).isEqualTo(passes ? Verdict.PASS : Verdict.NOT_YET);
    }

    @ParameterizedTest
    @EnumSource(value = StockOp.class, names = {"CONFIRM", "CANCEL", "EXPIRE"})
    void aSettlementOfAnOrderWithoutARowPasses(StockOp op) {
        assertThat(SettlementRule.judge(settle("e1", op, "o1", 2), null, Attempt.FIRST)).isEqualTo(Verdict.PASS);
    }

    @Test
    void onlyConfirmCancelAndExpiryAreSettlements() {
        assertThat(SettlementRule.of(StockOp.CONFIRM)).isEqualTo(ReservationState.Settlement.CONFIRM);
        assertThat(SettlementRule.of(StockOp.CANCEL)).isEqualTo(ReservationState.Settlement.CANCEL);
        assertThat(SettlementRule.of(StockOp.EXPIRE)).isEqualTo(ReservationState.Settlement.EXPIRE);
        assertThatThrownBy(() -> SettlementRule.of(StockOp.RESERVE)).isInstanceOf(IllegalArgumentException.class);
    }
}
