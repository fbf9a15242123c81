package io.stockguard.chaos.check;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static io.stockguard.chaos.check.Scenarios.accepts;
import static io.stockguard.chaos.check.Scenarios.rejects;

import org.junit.jupiter.api.Test;

class ReadYourWritesTest {

    private static RuleResult reads(HistoryFixtures fixtures) {
        return Scenarios.check(fixtures).result(ReadYourWrites.NAME);
    }

    @Test
    void acceptsReadsThatShowWhatTheClientWasTold() {
        accepts(reads(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").created()
                .readOrder("c1", "o1").ok("RESERVED")
                .confirm("c0", "o1").ok()
                .readOrder("c1", "o1").ok("CONFIRMED")
                .cancel("c0", "o1").ok()
                .readOrder("c1", "o1").ok("CANCELLED")));
    }

    @Test
    void acceptsAHoldThatExpiredBeforeTheRead() {
        accepts(reads(history().sku("SKU-1", 10)
                .hold("c0", "o1", 4, "SKU-1:2").created()
                .at(10_000).readOrder("c1", "o1").ok("EXPIRED")));
    }

    @Test
    void rejectsAnAcknowledgedOrderReadAsUnknown() {
        rejects(reads(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").created()
                .readOrder("c1", "o1").fail(404, "UNKNOWN_ORDER")), 1,
                "order o1 read as 404 UNKNOWN_ORDER", "after its reserve was acknowledged as RESERVED");
    }

    @Test
    void rejectsASaleReadAsAHold() {
        rejects(reads(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").created()
                .confirm("c0", "o1").ok()
                .readOrder("c1", "o1").ok("RESERVED")), 1, "order o1 read as RESERVED");
    }

    @Test
    void doesNotJudgeAReadWhileAnotherChangeIsUnderWay() {
        HistoryFixtures fixtures = history().sku("SKU-1", 10).reserve("c0", "o1", "SKU-1:2").created();
        HistoryFixtures.Call cancel = fixtures.cancel("c0", "o1");
        fixtures.readOrder("c1", "o1").ok("CANCELLED");
        cancel.info();
        accepts(reads(fixtures));
    }
}
