package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.change;
import static io.stockguard.ledger.JournalEvents.reserve;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EventIdempotencyTest {

    private static final Verdict DUPLICATE = new Verdict.Answer(EventOutcome.Settled.DUPLICATE);

    @Test
    void anEventTheDatabaseAppliedOrKeepsWaitingIsADuplicate() {
        EventIdempotency rule = new EventIdempotency(Set.of("e-applied", "e-waiting"));

        assertThat(rule.judge(reserve("e-applied", "o1", 2))).isEqualTo(DUPLICATE);
        assertThat(rule.judge(change("e-waiting", StockOp.RESTOCK, "rq-1", 5))).isEqualTo(DUPLICATE);
    }

    @Test
    void anEventHandedInTwiceInOneBatchPassesOnceOnly() {
        EventIdempotency rule = new EventIdempotency(Set.of());
        StockEvent sale = reserve("e1", "o1", 2);

        assertThat(rule.judge(sale)).isEqualTo(Verdict.PASS);
        assertThat(rule.judge(sale)).isEqualTo(DUPLICATE);
    }

    @Test
    void everyCopyOfAnEventInABatchHearsWhatTheFirstHeard() {
        StockEvent sale = reserve("e1", "o1", 2);
        StockEvent other = reserve("e2", "o2", 1);
        EventOutcome fenced = new EventOutcome.Rejected(EventOutcome.Reason.FENCED, "taken over");
        List<EventOutcome> outcomes = new ArrayList<>(List.of(fenced, EventOutcome.Settled.APPLIED,
                EventOutcome.Settled.DUPLICATE));

        EventIdempotency.answerRepeatsAlike(List.of(sale, other, sale), outcomes);

        assertThat(outcomes).as("the repeat is refused as its first copy was, not told it is done")
                .containsExactly(fenced, EventOutcome.Settled.APPLIED, fenced);
    }

    @Test
    void newEventsPassWhateverTheyChange() {
        EventIdempotency rule = new EventIdempotency(Set.of("e-applied"));

        assertThat(rule.judge(reserve("e1", "o1", 2))).isEqualTo(Verdict.PASS);
        assertThat(rule.judge(reserve("e2", "o1", 2))).as("the operation's repeat is another rule's")
                .isEqualTo(Verdict.PASS);
    }
}
