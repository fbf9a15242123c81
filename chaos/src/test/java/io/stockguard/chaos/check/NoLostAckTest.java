package io.stockguard.chaos.check;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static io.stockguard.chaos.check.Scenarios.accepts;
import static io.stockguard.chaos.check.Scenarios.rejects;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NoLostAckTest {

    private static RuleResult noLostAck(HistoryFixtures fixtures) {
        return Scenarios.check(fixtures).result("no-lost-ack");
    }

    @Test
    void acceptsCleanRun() {
        accepts(noLostAck(Scenarios.cleanRun()));
    }

    @Test
    void rejectsAcknowledgedReserveThatVanished() {
        rejects(noLostAck(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").created()
                        .reserve("c0", "o2", "SKU-1:1").created()
                        .at(60_000).finalUnknown("o1").finalOrder("o2", "RESERVED", "SKU-1:1")),
                1, "order o1: reserve acknowledged", "but the final read says 404 UNKNOWN_ORDER",
                "c0       OK     reserve order=o1 [SKU-1x2] ttl=900 -> 201 RESERVED",
                "final    FAIL   read-order order=o1");
    }

    @Test
    void rejectsAcknowledgedConfirmWhoseOrderIsStillReserved() {
        rejects(noLostAck(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").created()
                        .confirm("c0", "o1").ok()
                        .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:2")),
                1, "order o1: confirm acknowledged", "CONFIRMED) but the final read says RESERVED");
    }

    @Test
    void rejectsAcknowledgedConfirmWhoseSaleExpiredAsAHold() {
        // old enough to expire as a hold, but the confirm had made it a sale
        rejects(noLostAck(history().sku("SKU-1", 10)
                        .at(1_000).hold("c0", "o1", 60, "SKU-1:2").created()
                        .confirm("c0", "o1").ok()
                        .at(600_000).finalOrder("o1", "EXPIRED", "SKU-1:2")),
                1, "order o1: confirm acknowledged", "CONFIRMED) but the final read says EXPIRED");
    }

    @Test
    void rejectsAcknowledgedCancelWhoseOrderStillHoldsStock() {
        rejects(noLostAck(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").created()
                        .cancel("c0", "o1").ok()
                        .sell("c1", "o2", "SKU-1:1").created()
                        .cancel("c1", "o2").ok()
                        .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:2").finalOrder("o2", "CONFIRMED", "SKU-1:1")),
                2, "order o1: cancel acknowledged", "CANCELLED) but the final read says RESERVED");
    }

    @Test
    void acceptsReserveInDoubtThatLanded() {
        Verdict verdict = Scenarios.check(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").info()
                .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:2").settled("SKU-1", 10, 8, 2, 0));
        verdict.results().forEach(Scenarios::accepts);
    }

    @Test
    void acceptsReserveInDoubtThatNeverLanded() {
        accepts(noLostAck(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").info()
                .at(60_000).finalUnknown("o1")));
    }

    @Test
    void acceptsCancelInDoubtThatLandedAfterALaterConfirm() {
        accepts(noLostAck(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").created()
                .cancel("c0", "o1").info()
                .confirm("c0", "o1").ok()
                .at(60_000).finalOrder("o1", "CANCELLED", "SKU-1:2")));
    }

    @Test
    void acceptsExpiryOnceTtlLessClockSkewHasPassed() {
        // held at 1 s for 300 s; read at 200 s: 199 s + 120 s of allowed skew covers the TTL
        accepts(noLostAck(history().sku("SKU-1", 10)
                .at(1_000).hold("c0", "o1", 300, "SKU-1:2").created()
                .at(200_000).finalOrder("o1", "EXPIRED", "SKU-1:2")));
    }

    @Test
    void rejectsExpiryBeforeTtlLessClockSkew() {
        // read at 100 s: 99 s + 120 s is short of the 300 s TTL
        rejects(noLostAck(history().sku("SKU-1", 10)
                        .at(1_000).hold("c0", "o1", 300, "SKU-1:2").created()
                        .at(100_000).finalOrder("o1", "EXPIRED", "SKU-1:2")),
                1, "order o1: reserve acknowledged", "RESERVED) but the final read says EXPIRED");
    }

    @Test
    void rejectsExpiryBeforeTheEndOfAnAcknowledgedExtension() {
        // held at 1 s for 60 s, extended to 600 s: at 300 s (+120 s of skew) the hold has not ended
        rejects(noLostAck(history().sku("SKU-1", 10)
                        .at(1_000).hold("c0", "o1", 60, "SKU-1:2").created()
                        .at(2_000).extend("c0", "o1", 600).ok("RESERVED")
                        .at(300_000).finalOrder("o1", "EXPIRED", "SKU-1:2")),
                1, "order o1: reserve acknowledged", "RESERVED) but the final read says EXPIRED");
    }

    @Test
    void anExtensionRefusedOrInDoubtDoesNotLengthenTheHold() {
        accepts(noLostAck(history().sku("SKU-1", 10)
                .at(1_000).hold("c0", "o1", 60, "SKU-1:2").created()
                .at(2_000).extend("c0", "o1", 600).unavailable()
                .at(3_000).extend("c1", "o1", 600).info()
                .at(300_000).finalOrder("o1", "EXPIRED", "SKU-1:2")));
        accepts(noLostAck(history().sku("SKU-1", 10)
                .at(1_000).hold("c0", "o1", 60, "SKU-1:2").created()
                .at(2_000).extend("c0", "o1", 600).ok("RESERVED")
                .at(700_000).finalOrder("o1", "EXPIRED", "SKU-1:2")));
    }

    @Test
    void expiryWithoutClockSkewNeedsTheWholeTtl() {
        HistoryFixtures early = history().sku("SKU-1", 10)
                .at(1_000).hold("c0", "o1", 60, "SKU-1:2").created()
                .at(60_900).finalOrder("o1", "EXPIRED", "SKU-1:2");
        CheckOptions noSkew = CheckOptions.defaults(true).withClockSkewAllowanceMillis(0);
        assertThat(new Checker().check(early.build(), noSkew).result("no-lost-ack").passed()).isFalse();
        HistoryFixtures due = history().sku("SKU-1", 10)
                .at(1_000).hold("c0", "o1", 60, "SKU-1:2").created()
                .at(61_000).finalOrder("o1", "EXPIRED", "SKU-1:2");
        accepts(new Checker().check(due.build(), noSkew).result("no-lost-ack"));
    }

    @Test
    void rejectsExpiryOfSaleMadeWithCommit() {
        rejects(noLostAck(history().sku("SKU-1", 10)
                        .at(1_000).sell("c0", "o1", "SKU-1:2").created()
                        .at(3_000_000).finalOrder("o1", "EXPIRED", "SKU-1:2")),
                1, "CONFIRMED) but the final read says EXPIRED");
    }

    @Test
    void acceptsTombstoneOfCancelBeforeReserve() {
        Verdict verdict = Scenarios.check(history().sku("SKU-1", 10)
                .cancel("c0", "o1").ok()
                .reserve("c0", "o1", "SKU-1:2").fail(409, "ORDER_CANCELLED")
                .at(60_000).finalOrder("o1", "CANCELLED").settled("SKU-1", 10, 10, 0, 0));
        verdict.results().forEach(Scenarios::accepts);
    }

    @Test
    void rejectsAcknowledgedHoldThatEndedAsTombstone() {
        rejects(noLostAck(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").created()
                        .cancel("c0", "o1").ok()
                        .at(60_000).finalOrder("o1", "CANCELLED")),
                1, "order o1: final lines [] differ from the lines asked for [SKU-1x2]");
    }

    @Test
    void rejectsFinalLinesDifferentFromThoseAskedFor() {
        rejects(noLostAck(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").created()
                        .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:3")),
                1, "order o1: final lines [SKU-1x3] differ from the lines asked for [SKU-1x2]");
    }

    @Test
    void rejectsStockHeldByOrderNeverReserved() {
        rejects(noLostAck(history().sku("SKU-1", 10)
                        .confirm("c0", "o1").fail(404, "UNKNOWN_ORDER")
                        .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:1")),
                1, "order o1: final read RESERVED [SKU-1x1] shows stock held,",
                "but no reserve was acknowledged or left in doubt");
    }

    @Test
    void rejectsOrderWithoutDefiniteFinalRead() {
        HistoryFixtures fixtures = history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").created()
                .at(60_000);
        fixtures.finalOrderRead("o1").unavailable();
        rejects(noLostAck(fixtures), 1, "order o1: no definite final read");
    }

    @Test
    void acceptsAnOrderTheServiceWithdrewAfterAnAttemptInDoubtAndARefusedRetry() {
        // The first attempt's outcome is unknown (it landed); the retry is refused (the second line
        // sold out meanwhile): the service cancels what landed, though nobody asked to cancel.
        accepts(noLostAck(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").info()
                .at(1_000).reserve("c0", "o1", "SKU-1:2").fail(409, "INSUFFICIENT_STOCK")
                .at(60_000).finalOrder("o1", "CANCELLED", "SKU-1:2")));
    }

    @Test
    void rejectsACancelledOrderWhenNoRetryWasRefused() {
        // In doubt, then nothing: the service has no reason to cancel, so CANCELLED is not reachable.
        rejects(noLostAck(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").info()
                        .at(60_000).finalOrder("o1", "CANCELLED", "SKU-1:2")),
                1, "order o1: nothing was acknowledged but the final read says CANCELLED");
    }

    @Test
    void rejectsAWithdrawalAfterAnUnavailableRetry() {
        // 503 UNAVAILABLE says "not applied": no refusal of the order, so no withdrawal either.
        rejects(noLostAck(history().sku("SKU-1", 10)
                        .reserve("c0", "o1", "SKU-1:2").info()
                        .at(1_000).reserve("c0", "o1", "SKU-1:2").unavailable()
                        .at(60_000).finalOrder("o1", "CANCELLED", "SKU-1:2")),
                1, "but the final read says CANCELLED");
    }
}
