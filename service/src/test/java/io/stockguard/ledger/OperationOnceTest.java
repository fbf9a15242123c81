package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.A;
import static io.stockguard.ledger.JournalEvents.change;
import static io.stockguard.ledger.JournalEvents.line;
import static io.stockguard.ledger.JournalEvents.reserve;
import static io.stockguard.ledger.JournalEvents.settle;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.stock.OrderId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OperationOnceTest {

    private static final Verdict ALREADY_APPLIED = new Verdict.Refuse(EventOutcome.Reason.INVALID_TRANSITION,
            "this operation of the order was already applied");

    /** The journal has o1's reserve and cancel of SKU A: each operation × whether it is taken. */
    static Stream<Arguments> operations() {
        return Stream.of(
                Arguments.of(named("o1's reserve", reserve("e1", "o1", 2)), false),
                Arguments.of(named("o1's cancel", settle("e1", StockOp.CANCEL, "o1", 2)), false),
                Arguments.of(named("o1's confirm", settle("e1", StockOp.CONFIRM, "o1", 2)), true),
                Arguments.of(named("o1's expiry", settle("e1", StockOp.EXPIRE, "o1", 2)), true),
                Arguments.of(named("o2's reserve", reserve("e1", "o2", 2)), true),
                Arguments.of(named("a restock under request id o1", change("e1", StockOp.RESTOCK, "o1", 2)), true));
    }

    @ParameterizedTest(name = "{0}: passes {1}")
    @MethodSource("operations")
    void anOperationTheJournalHasIsRefused(StockEvent event, boolean passes) {
        OperationOnce rule = new OperationOnce(Set.of("o1|" + A.value() + "|RESERVE", "o1|" + A.value() + "|CANCEL"),
                Map.of());

        assertThat(rule.claim(event)).isEqualTo(passes ? Verdict.PASS : ALREADY_APPLIED);
    }

    @Test
    void anOperationPassesOnceInABatchWhateverItsEventId() {
        OperationOnce rule = new OperationOnce(Set.of(), Map.of());

        assertThat(rule.claim(reserve("e1", "o1", 2))).isEqualTo(Verdict.PASS);
        assertThat(rule.claim(reserve("e2", "o1", 2))).isEqualTo(ALREADY_APPLIED);
    }

    @Test
    void aSettlementWaitingForItsReserveIsTaken() {
        StockEvent waiting = settle("e1", StockOp.CANCEL, "o1", 2);
        OperationOnce rule = new OperationOnce(Set.of(), Map.of(OrderId.of("o1"), Map.of(A, List.of(waiting))));

        assertThat(rule.claim(settle("e2", StockOp.CANCEL, "o1", 2))).isEqualTo(ALREADY_APPLIED);
        assertThat(rule.claim(reserve("e3", "o1", 2))).isEqualTo(Verdict.PASS);
    }

    @Test
    void stockChangesAreNoOrdersOperationsAndAlwaysPass() {
        OperationOnce rule = new OperationOnce(Set.of(), Map.of());

        assertThat(rule.claim(change("e1", StockOp.RESTOCK, "rq-1", 2))).isEqualTo(Verdict.PASS);
        assertThat(rule.claim(change("e2", StockOp.RESTOCK, "rq-1", 2))).isEqualTo(Verdict.PASS);
    }

    @Test
    void aLineAlreadyReservedIsNotReservedAgain() {
        assertThat(OperationOnce.reserveOnce(line(A, 2))).isEqualTo(new Verdict.Refuse(
                EventOutcome.Reason.INVALID_TRANSITION, "a second reservation of the same line"));
        assertThat(OperationOnce.reserveOnce(null)).isEqualTo(Verdict.PASS);
    }
}
