package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.change;
import static io.stockguard.ledger.JournalEvents.reserve;
import static io.stockguard.ledger.JournalEvents.settle;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.stock.OrderId;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class AllOrNothingTest {

    private static final EventOutcome.Rejected REFUSAL = new EventOutcome.Rejected(
            EventOutcome.Reason.WOULD_GO_NEGATIVE, "bucket 0 cannot take RESERVE of 2");

    private final AllOrNothing rule = new AllOrNothing(Map.of(OrderId.of("o1"), REFUSAL));

    @ParameterizedTest
    @EnumSource(value = StockOp.class, names = {"CONFIRM", "CANCEL", "EXPIRE"})
    void everyChangeOfARefusedOrderGetsTheSameRefusal(StockOp settlement) {
        assertThat(rule.judge(reserve("e1", "o1", 2))).isEqualTo(new Verdict.Answer(REFUSAL));
        assertThat(rule.judge(settle("e2", settlement, "o1", 2))).isInstanceOfSatisfying(Verdict.Answer.class,
                answer -> assertThat(answer.outcome()).isSameAs(REFUSAL));
    }

    @Test
    void anotherOrderPasses() {
        assertThat(rule.judge(reserve("e1", "o2", 2))).isEqualTo(Verdict.PASS);
    }

    @ParameterizedTest
    @EnumSource(value = StockOp.class, names = {"RESTOCK", "ADJUST", "TRANSFER_OUT", "TRANSFER_IN"})
    void aStockChangeBelongsToNoOrderAndPasses(StockOp op) {
        assertThat(rule.judge(change("e1", op, "o1", 1))).as("even under a request id spelled like the order")
                .isEqualTo(Verdict.PASS);
    }

    /** What the other change of an order with one refused change came to × whether the order is split. */
    static Stream<Arguments> partners() {
        return Stream.of(
                Arguments.of(EventOutcome.Settled.APPLIED, true),
                Arguments.of(EventOutcome.Settled.DEFERRED, true),
                Arguments.of(EventOutcome.Settled.DUPLICATE, false),
                Arguments.of(new EventOutcome.Rejected(EventOutcome.Reason.FENCED, "another line"), false));
    }

    @ParameterizedTest(name = "the other change {0}: refused whole {1}")
    @MethodSource("partners")
    void anOrderIsRefusedWholeWhenSomeOfItsChangesWereRefusedAndOthersWereNot(EventOutcome partner,
            boolean split) {
        List<StockEvent> events = List.of(reserve("e1", "o1", 2), reserve("e2", "o1", 1));

        Map<OrderId, EventOutcome.Rejected> refused = AllOrNothing.partlyRefused(events, List.of(REFUSAL, partner),
                Map.of());

        assertThat(refused).isEqualTo(split ? Map.of(OrderId.of("o1"), REFUSAL) : Map.of());
    }

    @Test
    void theFirstRefusalOfAnOrderIsTheOneItsChangesGet() {
        EventOutcome.Rejected second = new EventOutcome.Rejected(EventOutcome.Reason.FENCED, "another line");
        List<StockEvent> events = List.of(reserve("e1", "o1", 2), reserve("e2", "o1", 1), reserve("e3", "o1", 1));

        assertThat(AllOrNothing.partlyRefused(events, List.of(EventOutcome.Settled.APPLIED, REFUSAL, second),
                Map.of())).containsExactly(Map.entry(OrderId.of("o1"), REFUSAL));
    }

    @Test
    void ordersRefusedWholeAlreadyAndStockChangesAreNotSplit() {
        List<StockEvent> events = List.of(reserve("e1", "o1", 2), reserve("e2", "o1", 1),
                change("e3", StockOp.RESTOCK, "rq-1", 1), change("e4", StockOp.ADJUST, "rq-1", -1));
        List<EventOutcome> outcomes = List.of(REFUSAL, EventOutcome.Settled.APPLIED, REFUSAL,
                EventOutcome.Settled.APPLIED);

        assertThat(AllOrNothing.partlyRefused(events, outcomes, Map.of(OrderId.of("o1"), REFUSAL))).isEmpty();
    }
}
