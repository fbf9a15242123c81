package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.A;
import static io.stockguard.ledger.JournalEvents.bucket;
import static io.stockguard.ledger.JournalEvents.change;
import static io.stockguard.ledger.JournalEvents.hot;
import static io.stockguard.ledger.JournalEvents.reserve;
import static io.stockguard.ledger.JournalEvents.settle;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.ledger.Attempt;
import io.stockguard.stock.SkuMode;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CounterFitTest {

    /** 1 available, 1 reserved, nothing sold; the database's D - A is 0. */
    private static final long BASE = 0;

    private static final Verdict WAITS = new Verdict.Wait(Waiting.BUCKET);

    /** A change × its first attempt's verdict; every retry that does not fit is {@link Verdict#NOT_YET}. */
    static Stream<Arguments> changes() {
        return Stream.of(
                Arguments.of(named("a sale that fits", hot(reserve("e1", "o1", 1), 3, 1, 7)), Verdict.PASS),
                Arguments.of(named("a confirm that fits", hot(settle("e1", StockOp.CONFIRM, "o1", 1), 3, 1, 7)),
                        Verdict.PASS),
                Arguments.of(named("a sale short while the stores agree", hot(reserve("e1", "o1", 2), 3, 1, BASE)),
                        WAITS),
                Arguments.of(named("a confirm short of reserved while the stores agree",
                        hot(settle("e1", StockOp.CONFIRM, "o1", 2), 3, 1, BASE)), WAITS),
                Arguments.of(named("a sale short from a hot store that drifted", hot(reserve("e1", "o1", 2), 3, 1, 7)),
                        new Verdict.Refuse(EventOutcome.Reason.WOULD_GO_NEGATIVE, "bucket 0 cannot take RESERVE of 2:"
                                + " the hot store's R - J is 7, the database's D - A is 0")),
                Arguments.of(named("a removal the database made, short", change("e1", StockOp.ADJUST, "rq-1", -2)),
                        new Verdict.Refuse(EventOutcome.Reason.WOULD_GO_NEGATIVE, "bucket 0 cannot take ADJUST of 2")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void aChangeThatDoesNotFitWaitsWhileTheStoresAgreeAndIsRefusedWhenTheyDoNot(StockEvent event, Verdict first) {
        assertThat(CounterFit.judge(event, bucket(A, SkuMode.NORMAL, 1, 1, 0, BASE), Attempt.FIRST)).isEqualTo(first);
    }

    @ParameterizedTest(name = "{0}, retried")
    @MethodSource("changes")
    void aRetryThatDoesNotFitStaysAsItIs(StockEvent event, Verdict first) {
        assertThat(CounterFit.judge(event, bucket(A, SkuMode.NORMAL, 1, 1, 0, BASE), Attempt.RETRY))
                .isEqualTo(first == Verdict.PASS ? Verdict.PASS : Verdict.NOT_YET);
    }
}
