package io.stockguard.chaos.check;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static io.stockguard.chaos.check.Scenarios.accepts;
import static io.stockguard.chaos.check.Scenarios.rejects;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NotAppliedMeansNotAppliedTest {

    private static RuleResult notApplied(HistoryFixtures fixtures) {
        return Scenarios.check(fixtures).result("not-applied-means-not-applied");
    }

    @Test
    void acceptsCleanRun() {
        accepts(notApplied(Scenarios.cleanRun()));
    }

    @Test
    void acceptsReserveRefusedUnavailableThatLeftNothing() {
        RuleResult result = notApplied(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").unavailable()
                .reserve("c0", "o1", "SKU-1:2").unavailable()
                .at(60_000).finalUnknown("o1"));
        accepts(result);
        assertThat(result.summary()).contains("1 changes refused on every attempt (2 answers 503 UNAVAILABLE in all)");
    }

    @Test
    void rejectsReserveAnsweredUnavailableThatWasApplied() {
        RuleResult result = notApplied(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").unavailable()
                .reserve("c0", "o1", "SKU-1:2").fail(429, "THROTTLED")
                .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:2"));
        rejects(result, 1, "order o1: reserve refused on all 2 attempts (1 of them 503 UNAVAILABLE) yet the final read"
                + " says RESERVED [SKU-1x2]", "FAIL   reserve order=o1 [SKU-1x2] ttl=900 -> 503 UNAVAILABLE");
        assertThat(result.summary()).contains("1 of the 503 UNAVAILABLE answers were broken promises");
    }

    @Test
    void rejectsRefusedReserveThatLeftCancelledHoldRatherThanTombstone() {
        rejects(notApplied(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").fail(409, "INSUFFICIENT_STOCK")
                        .cancel("c0", "o1").ok()
                        .at(60_000).finalOrder("o1", "CANCELLED", "SKU-1:2")),
                1, "order o1: reserve refused on all 1 attempts (0 of them 503 UNAVAILABLE) yet the final read says"
                        + " CANCELLED [SKU-1x2]");
    }

    @Test
    void rejectsRefusedConfirmThatWasApplied() {
        rejects(notApplied(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").created()
                        .confirm("c0", "o1").unavailable()
                        .at(60_000).finalOrder("o1", "CONFIRMED", "SKU-1:2")),
                1, "order o1: confirm refused on all 1 attempts (1 of them 503 UNAVAILABLE) yet the final read says"
                        + " CONFIRMED");
    }

    @Test
    void acceptsRefusedConfirmOfSaleMadeWithCommit() {
        accepts(notApplied(history().sku("SKU-1", 10)
                .sell("c0", "o1", "SKU-1:2").info()
                .confirm("c0", "o1").fail(404, "UNKNOWN_ORDER")
                .at(60_000).finalOrder("o1", "CONFIRMED", "SKU-1:2")));
    }

    @Test
    void rejectsRefusedCancelThatWasApplied() {
        rejects(notApplied(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").created()
                        .cancel("c0", "o1").unavailable()
                        .at(60_000).finalOrder("o1", "CANCELLED", "SKU-1:2")),
                1, "order o1: cancel refused on all 1 attempts (1 of them 503 UNAVAILABLE) yet the final read says"
                        + " CANCELLED");
    }
}
