package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.A;
import static io.stockguard.ledger.JournalEvents.B;
import static io.stockguard.ledger.JournalEvents.NOW;
import static io.stockguard.ledger.JournalEvents.change;
import static io.stockguard.ledger.JournalEvents.hot;
import static io.stockguard.ledger.JournalEvents.on;
import static io.stockguard.ledger.JournalEvents.reserve;
import static io.stockguard.ledger.JournalEvents.settle;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.reservation.Ownership;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OwnerFenceTest {

    private static final Verdict.Answer FENCED_WITH_ITS_ORDER = new Verdict.Answer(
            new EventOutcome.Rejected(EventOutcome.Reason.FENCED, "another line of its order was fenced"));

    /** Owner × the epoch of the change × whether the journal is applied behind its acknowledgement. */
    static Stream<Arguments> ownership() {
        Ownership hot = new Ownership.Hot(3);
        Ownership draining = new Ownership.Draining(3, NOW);
        Ownership database = new Ownership.Database(3);
        return Stream.of(
                Arguments.of(hot, 3L, false, true),
                Arguments.of(hot, 3L, true, true),
                Arguments.of(hot, 2L, true, false),
                Arguments.of(hot, 4L, true, false),
                Arguments.of(draining, 3L, true, true),
                Arguments.of(draining, 3L, false, false),
                Arguments.of(draining, 2L, true, false),
                Arguments.of(database, 3L, true, false),
                Arguments.of(database, 3L, false, false),
                Arguments.of(new Ownership.Database(0), 1L, true, false));
    }

    @ParameterizedTest(name = "owner {0}, change at epoch {1}, journal behind {2}: passes {3}")
    @MethodSource("ownership")
    void aHotChangePassesOnlyWhenItsEpochMayChangeTheSku(Ownership owner, long epoch, boolean behind,
            boolean passes) {
        OwnerFence fence = new OwnerFence(Map.of(A, owner), behind);
        StockEvent sale = hot(reserve("e1", "o1", 2), epoch, 1, 8);
        fence.fence(List.of(sale));

        assertThat(fence.judge(sale)).isEqualTo(passes ? Verdict.PASS : new Verdict.Refuse(
                EventOutcome.Reason.FENCED, "the hot store of epoch " + epoch + " does not own the SKU (it is "
                        + owner + ")"));
    }

    @Test
    void aChangeTheDatabaseMadeIsItsOwnWhoeverSells() {
        OwnerFence fence = new OwnerFence(Map.of(A, new Ownership.Draining(3, NOW)), false);
        StockEvent restock = change("e1", StockOp.RESTOCK, "rq-1", 4);
        fence.fence(List.of(restock));

        assertThat(fence.judge(restock)).isEqualTo(Verdict.PASS);
    }

    @Test
    void theOtherChangesOfAnOrderWithAFencedLineAreRefusedWithoutAnAnomalyOfTheirOwn() {
        OwnerFence fence = new OwnerFence(Map.of(A, new Ownership.Hot(3), B, new Ownership.Hot(7)), false);
        StockEvent fencedLine = on(hot(reserve("e1", "o1", 1), 6, 1, 9), B, 0);
        StockEvent ownLine = hot(reserve("e2", "o1", 1), 3, 1, 9);
        StockEvent ownSettlement = hot(settle("e3", StockOp.CONFIRM, "o1", 1), 3, 2, 9);
        StockEvent otherOrder = hot(reserve("e4", "o2", 1), 3, 3, 9);
        StockEvent restock = hot(change("e5", StockOp.RESTOCK, "rq-1", 1), 3, 4, 9);
        fence.fence(List.of(ownLine, ownSettlement, otherOrder, restock, fencedLine));

        assertThat(fence.judge(ownLine)).as("judged before the fenced line").isEqualTo(FENCED_WITH_ITS_ORDER);
        assertThat(fence.judge(ownSettlement)).isEqualTo(FENCED_WITH_ITS_ORDER);
        assertThat(fence.judge(fencedLine)).isInstanceOfSatisfying(Verdict.Refuse.class,
                refuse -> assertThat(refuse.reason()).isEqualTo(EventOutcome.Reason.FENCED));
        assertThat(fence.judge(otherOrder)).isEqualTo(Verdict.PASS);
        assertThat(fence.judge(restock)).isEqualTo(Verdict.PASS);
    }
}
