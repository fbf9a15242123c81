package io.stockguard.reservation.jdbc;

import static io.stockguard.reservation.jdbc.JournalEvents.change;
import static io.stockguard.reservation.jdbc.JournalEvents.reserve;
import static io.stockguard.reservation.jdbc.JournalEvents.settle;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockOp;
import io.stockguard.stock.OrderId;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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
}
