package io.stockguard.chaos.check;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static io.stockguard.chaos.check.Scenarios.accepts;
import static io.stockguard.chaos.check.Scenarios.rejects;

import org.junit.jupiter.api.Test;

class IdempotencyTest {

    private static RuleResult idempotency(HistoryFixtures fixtures) {
        return Scenarios.check(fixtures).result("idempotency");
    }

    @Test
    void acceptsCleanRun() {
        accepts(idempotency(Scenarios.cleanRun()));
    }

    @Test
    void acceptsRetriesAnsweredAsReplays() {
        accepts(idempotency(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").created()
                .reserve("c0", "o1", "SKU-1:2").replayed()
                .confirm("c0", "o1").ok()
                .confirm("c0", "o1").replayed("CONFIRMED")
                .cancel("c0", "o1").ok()
                .cancel("c0", "o1").replayed("CANCELLED")));
    }

    @Test
    void rejectsOrderCreatedTwice() {
        rejects(idempotency(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").created()
                        .reserve("c0", "o1", "SKU-1:2").created()),
                1, "order o1: reserve answered 201 (created) 2 times",
                "OK     reserve order=o1 [SKU-1x2] ttl=900 -> 201 RESERVED");
    }

    @Test
    void rejectsReplayAnsweredAsCreatedAfterEarlierReplay() {
        // the attempt in doubt landed (the first answer was a replay), so nothing was left to create
        rejects(idempotency(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").info()
                        .reserve("c0", "o1", "SKU-1:2").replayed()
                        .reserve("c0", "o1", "SKU-1:2").created()),
                1, "order o1: reserve #7 was sent after reserve #5 was acknowledged but was answered 201 "
                        + "replayed=false instead of 200 replayed=true");
    }

    @Test
    void rejectsRetryNotMarkedReplayed() {
        rejects(idempotency(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").created()
                        .reserve("c0", "o1", "SKU-1:2").answered(200, false, "RESERVED", "SKU-1:2")),
                1, "answered 200 replayed=false instead of 200 replayed=true");
    }

    @Test
    void rejectsReplayWithOtherLines() {
        rejects(idempotency(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").created()
                        .reserve("c0", "o1", "SKU-1:2").answered(200, true, "RESERVED", "SKU-1:3")),
                1, "order o1: reserve #5 answered lines [SKU-1x3] but the order asked for [SKU-1x2]"
                        + " and was first answered [SKU-1x2]");
    }

    @Test
    void rejectsRepeatedConfirmNotAnsweredAsReplay() {
        rejects(idempotency(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").created()
                        .confirm("c0", "o1").ok()
                        .confirm("c0", "o1").ok()),
                1, "order o1: confirm #7 was sent after confirm #5 was acknowledged but was not answered as a replay");
    }

    @Test
    void rejectsRepeatedCancelNotAnsweredAsReplay() {
        rejects(idempotency(history().sku("SKU-1", 10)
                        .cancel("c0", "o1").ok()
                        .cancel("c0", "o1").ok()),
                1, "order o1: cancel #5 was sent after cancel #3 was acknowledged but was not answered as a replay");
    }

    @Test
    void acceptsTwinsThatOverlapAnsweredInEitherOrder() {
        // a double submit: both sent before either was answered; the replay happens to be recorded first
        HistoryFixtures fixtures = history().sku("SKU-1", 10);
        HistoryFixtures.Call original = fixtures.at(1_000).reserve("c0", "o1", "SKU-1:2");
        HistoryFixtures.Call twin = fixtures.at(1_001).reserve("c0-twin", "o1", "SKU-1:2");
        fixtures.at(1_100);
        twin.replayed();
        original.created();
        accepts(idempotency(fixtures));
    }

    @Test
    void rejectsTwinsThatOverlapBothAnsweredAsNew() {
        HistoryFixtures fixtures = history().sku("SKU-1", 10);
        HistoryFixtures.Call original = fixtures.at(1_000).reserve("c0", "o1", "SKU-1:2");
        HistoryFixtures.Call twin = fixtures.at(1_001).reserve("c0-twin", "o1", "SKU-1:2");
        fixtures.at(1_100);
        twin.created();
        original.created();
        rejects(idempotency(fixtures), 1, "order o1: reserve answered 201 (created) 2 times");
    }
}
