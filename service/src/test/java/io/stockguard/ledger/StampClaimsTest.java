package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.A;
import static io.stockguard.ledger.JournalEvents.B;
import static io.stockguard.ledger.JournalEvents.change;
import static io.stockguard.ledger.JournalEvents.hot;
import static io.stockguard.ledger.JournalEvents.on;
import static io.stockguard.ledger.JournalEvents.reserve;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockOp;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StampClaimsTest {

    @Test
    void anotherEventUnderAStampTheDatabaseHoldsIsARegression() {
        StampClaims claims = new StampClaims(Map.of(new Stamp(A, 0, 3, 1), "e-lost"));

        assertThat(claims.claim(hot(reserve("e-retry", "o1", 2), 3, 1, 8))).isEqualTo(new Verdict.Refuse(
                EventOutcome.Reason.REGRESSION, "stamp 3/1 already belongs to event e-lost: the hot store lost writes"));
    }

    @Test
    void theEventHoldingTheStampPasses() {
        StampClaims claims = new StampClaims(Map.of(new Stamp(A, 0, 3, 1), "e1"));

        assertThat(claims.claim(hot(reserve("e1", "o1", 2), 3, 1, 8))).isEqualTo(Verdict.PASS);
    }

    @Test
    void aFreeStampIsClaimedBySoTheBatchCannotReissueIt() {
        StampClaims claims = new StampClaims(Map.of());

        assertThat(claims.claim(hot(reserve("e1", "o1", 2), 3, 1, 8))).isEqualTo(Verdict.PASS);
        assertThat(claims.claim(hot(reserve("e2", "o2", 2), 3, 1, 6))).isInstanceOfSatisfying(Verdict.Refuse.class,
                refuse -> assertThat(refuse.reason()).isEqualTo(EventOutcome.Reason.REGRESSION));
    }

    @Test
    void aStampIsItsBucketsAndEpochsAlone() {
        StampClaims claims = new StampClaims(Map.of(new Stamp(A, 0, 3, 1), "e1"));

        assertThat(claims.claim(on(hot(reserve("e2", "o1", 2), 3, 1, 8), B, 0))).as("another SKU")
                .isEqualTo(Verdict.PASS);
        assertThat(claims.claim(on(hot(reserve("e3", "o1", 2), 3, 1, 8), A, 1))).as("another bucket")
                .isEqualTo(Verdict.PASS);
        assertThat(claims.claim(hot(reserve("e4", "o1", 2), 4, 1, 8))).as("another epoch")
                .isEqualTo(Verdict.PASS);
    }

    @Test
    void aChangeTheDatabaseMadeHasNoStampToClaim() {
        StampClaims claims = new StampClaims(Map.of(new Stamp(A, 0, 3, 1), "e1"));

        assertThat(claims.claim(change("e2", StockOp.RESTOCK, "rq-1", 5))).isEqualTo(Verdict.PASS);
        assertThat(claims.claim(change("e3", StockOp.RESTOCK, "rq-2", 5))).isEqualTo(Verdict.PASS);
    }
}
