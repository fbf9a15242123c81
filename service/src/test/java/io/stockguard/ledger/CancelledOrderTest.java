package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.A;
import static io.stockguard.ledger.JournalEvents.B;
import static io.stockguard.ledger.JournalEvents.header;
import static io.stockguard.ledger.JournalEvents.reserve;
import static io.stockguard.ledger.JournalEvents.settle;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.reservation.ReservationState;
import io.stockguard.ledger.Attempt;
import io.stockguard.stock.SkuId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CancelledOrderTest {

    /** Where the order's settlements wait for their reserve, when the reserve of its line on A comes. */
    enum Waiting {
        NONE, ON_THIS_SKU, ON_ANOTHER_SKU, APPLIED_ON_THIS_SKU;

        Map<SkuId, List<StockEvent>> settlements() {
            StockEvent cancel = settle("e-cancel", StockOp.CANCEL, "o1", 2);
            return switch (this) {
                case NONE -> Map.of();
                case ON_THIS_SKU -> Map.of(A, List.of(cancel));
                case ON_ANOTHER_SKU -> Map.of(B, List.of(cancel));
                case APPLIED_ON_THIS_SKU -> Map.of(A, new ArrayList<>());
            };
        }
    }

    enum Expect { PASS, REFUSED, FLAGGED }

    /** The order's row × its waiting settlements × the synchronous journal × the attempt. */
    static Stream<Arguments> reserves() {
        return Stream.of(
                Arguments.of(null, Waiting.NONE, true, Attempt.FIRST, Expect.PASS),
                Arguments.of(ReservationState.RESERVED, Waiting.NONE, true, Attempt.FIRST, Expect.PASS),
                Arguments.of(ReservationState.EXPIRED, Waiting.NONE, true, Attempt.FIRST, Expect.PASS),
                Arguments.of(ReservationState.CANCELLED, Waiting.NONE, true, Attempt.FIRST, Expect.REFUSED),
                Arguments.of(ReservationState.CANCELLED, Waiting.NONE, false, Attempt.FIRST, Expect.FLAGGED),
                Arguments.of(ReservationState.CANCELLED, Waiting.NONE, true, Attempt.RETRY, Expect.PASS),
                Arguments.of(ReservationState.CANCELLED, Waiting.NONE, false, Attempt.RETRY, Expect.PASS),
                Arguments.of(ReservationState.CANCELLED, Waiting.ON_THIS_SKU, true, Attempt.FIRST, Expect.PASS),
                Arguments.of(ReservationState.CANCELLED, Waiting.ON_THIS_SKU, false, Attempt.FIRST, Expect.PASS),
                Arguments.of(ReservationState.CANCELLED, Waiting.ON_ANOTHER_SKU, true, Attempt.FIRST, Expect.REFUSED),
                Arguments.of(ReservationState.CANCELLED, Waiting.ON_ANOTHER_SKU, false, Attempt.FIRST, Expect.PASS),
                Arguments.of(ReservationState.CANCELLED, Waiting.APPLIED_ON_THIS_SKU, true, Attempt.FIRST,
                        Expect.REFUSED),
                Arguments.of(ReservationState.CANCELLED, Waiting.APPLIED_ON_THIS_SKU, false, Attempt.FIRST,
                        Expect.PASS));
    }

    @ParameterizedTest(name = "order {0}, settlements waiting {1}, strict {2}, {3} attempt: {4}")
    @MethodSource("reserves")
    void aReservationAfterItsOrdersCancelIsRefusedToItsCallerOrRecorded(ReservationState state, Waiting waiting,
            boolean strict, Attempt attempt, Expect expected) {
        Verdict verdict = CancelledOrder.judge(reserve("e1", "o1", 2), state == null ? null : header("o1", state),
                waiting.settlements(), strict, attempt);

        assertThat(verdict).isEqualTo(switch (expected) {
            case PASS -> Verdict.PASS;
            case REFUSED -> new Verdict.Answer(new EventOutcome.Rejected(EventOutcome.Reason.ORDER_CANCELLED,
                    "order o1 was cancelled before this reservation reached the database"));
            case FLAGGED -> new Verdict.Flag(EventOutcome.Reason.ORDER_CANCELLED,
                    "an acknowledged reservation of a cancelled order; applied");
        });
    }
}
