package io.stockguard.chaos.check;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static io.stockguard.chaos.check.Scenarios.accepts;
import static io.stockguard.chaos.check.Scenarios.rejects;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LivenessTest {

    private static RuleResult liveness(HistoryFixtures fixtures, boolean faultsPlanned) {
        return new Checker().check(fixtures.build(), CheckOptions.defaults(faultsPlanned)).result("liveness");
    }

    /** Reads every 200 ms for 40 s; kill-redis from 5 s, healed at 10 s (acknowledged at 10.010 s). */
    private static HistoryFixtures faultAt5HealedAt10() {
        return history().sku("SKU-1", 10)
                .load("c0", "SKU-1", 0, 5_000, 200, "ok")
                .at(5_000).fault("kill-redis")
                .at(10_000).heal("kill-redis");
    }

    @Test
    void acceptsCleanRun() {
        RuleResult result = liveness(Scenarios.cleanRun(), true);
        accepts(result);
        assertThat(result.summary()).contains("heal-kill-redis at 8.010s: 51/51 definite (100.0%)");
    }

    @Test
    void rejectsHealFollowedByNoDefiniteAnswer() {
        RuleResult result = liveness(faultAt5HealedAt10().load("c0", "SKU-1", 5_000, 40_000, 200, "unavailable"),
                true);
        rejects(result, 1, "heal-kill-redis at 10.010s: 0/51 definite (0.0%) from 20.010s to 30.010s, below 90.0%"
                + " definite", "nemesis  OK     heal-kill-redis",
                "c0       FAIL   read-sku sku=SKU-1 -> 503 UNAVAILABLE");
        assertThat(result.summary()).contains("; not recovered within 29 s");
    }

    @Test
    void rejectsHealFollowedBySilence() {
        // the clients hang from the fault on; one answer comes back long after the window
        RuleResult result = liveness(faultAt5HealedAt10().at(40_000).readSku("c1", "SKU-1").info(), true);
        rejects(result, 1, "heal-kill-redis at 10.010s: no answer at all, below 90.0% definite");
    }

    @Test
    void acceptsNinetyPercentDefiniteAndReportsTimeToRecover() {
        RuleResult result = liveness(faultAt5HealedAt10()
                .load("c0", "SKU-1", 5_000, 13_000, 200, "unavailable")
                .load("c0", "SKU-1", 13_000, 40_000, 200, "ok"), true);
        accepts(result);
        assertThat(result.summary()).contains("recovered 3 s after the heal");
    }

    @Test
    void clipsWindowAtTheLastAnswerToCompleteNotTheLastInvoked() {
        // c1's read hangs from 1 s to 40 s: the load ends at 40 s, so the window is whole, not cut at 21 s
        HistoryFixtures fixtures = faultAt5HealedAt10();
        HistoryFixtures.Call hung = fixtures.at(1_000).readSku("c1", "SKU-1");
        fixtures.load("c0", "SKU-1", 10_000, 21_000, 200, "ok").at(40_000);
        hung.info();
        RuleResult result = liveness(fixtures, true);
        accepts(result);
        assertThat(result.summary()).contains("5/5 definite (100.0%) from 20.010s to 30.010s");
    }

    @Test
    void skipsWindowClippedByTheNextFault() {
        RuleResult result = liveness(faultAt5HealedAt10()
                .load("c0", "SKU-1", 5_000, 40_000, 200, "unavailable")
                .at(11_000).fault("partition"), true);
        accepts(result);
        assertThat(result.summary()).contains("heal-kill-redis at 10.010s: skipped, its window is 0 ms after clipping");
    }

    @Test
    void acceptsFaultFreeRunThatStayedOnTheHotStore() {
        RuleResult result = liveness(history().sku("SKU-1", 10).load("c0", "SKU-1", 0, 20_000, 100, "ok")
                .metrics("a", 0, 0).metrics("b", 0, 0), false);
        accepts(result);
        assertThat(result.summary()).contains("no faults planned: 200/200 answers definite (100.0%), 0 database"
                + " fallbacks, 0 takeovers");
    }

    @Test
    void rejectsFaultFreeRunWithDatabaseFallback() {
        rejects(liveness(history().sku("SKU-1", 10).load("c0", "SKU-1", 0, 20_000, 100, "ok")
                        .metrics("a", 0, 0).metrics("b", 1, 0), false), 1,
                "no faults planned, yet 1 database fallbacks, 0 takeovers",
                "final    OK     metrics -> 200 {databaseFallbacks=1, takeovers=0} on=b");
    }

    @Test
    void rejectsFaultFreeRunWithASingleAnswerInDoubt() {
        rejects(liveness(history().sku("SKU-1", 10)
                        .load("c0", "SKU-1", 0, 9_900, 100, "ok")
                        .load("c0", "SKU-1", 9_900, 10_000, 100, "info")
                        .metrics("a", 0, 0), false), 1,
                "no faults planned: 99/100 answers definite (99.0%), below 100.0%", "c0       INFO   read-sku");
    }

    @Test
    void rejectsFaultFreeRunWithASingle503() {
        rejects(liveness(history().sku("SKU-1", 10)
                        .load("c0", "SKU-1", 0, 9_900, 100, "ok")
                        .load("c0", "SKU-1", 9_900, 10_000, 100, "unavailable")
                        .metrics("a", 0, 0), false), 1,
                "no faults planned: 99/100 answers definite (99.0%), below 100.0%", "c0       FAIL   read-sku");
    }

    @Test
    void acceptsAnOperationSettledWithinTenSecondsOfItsHeal() {
        HistoryFixtures fixtures = faultAt5HealedAt10().load("c1", "SKU-1", 5_000, 40_000, 200, "ok");
        fixtures.at(6_000).reserve("c0", "o1", "SKU-1:1").info();
        fixtures.at(12_000).reserve("c0", "o1", "SKU-1:1").info();
        fixtures.at(19_000).reserve("c0", "o1", "SKU-1:1").created();
        RuleResult result = liveness(fixtures, true);
        accepts(result);
        assertThat(result.summary()).contains("1 operations were in doubt for a while; after kill-redis at most 9000 ms "
                + "beyond its heal");
    }

    @Test
    void rejectsAnOperationInDoubtLongerThanTenSecondsAfterItsHeal() {
        HistoryFixtures fixtures = faultAt5HealedAt10().load("c1", "SKU-1", 5_000, 40_000, 200, "ok");
        fixtures.at(6_000).reserve("c0", "o1", "SKU-1:1").info();
        fixtures.at(15_000).reserve("c0", "o1", "SKU-1:1").info();
        fixtures.at(21_000).reserve("c0", "o1", "SKU-1:1").created();
        rejects(liveness(fixtures, true), 1, "c0 reserve o1 stayed without a definite answer until 21.010s, 11000 ms "
                + "after the heal of kill-redis (at most 10000 ms)", "c0       INFO   reserve order=o1");
    }

    @Test
    void rejectsAnOperationNeverSettledWhileTheLoadWentOnPastItsDeadline() {
        HistoryFixtures fixtures = faultAt5HealedAt10().load("c1", "SKU-1", 5_000, 40_000, 200, "ok");
        fixtures.at(6_000).cancel("c0", "o1").info();
        fixtures.at(16_000).cancel("c0", "o1").info();
        // the client gives up and moves on: the cancel was never settled
        fixtures.at(30_000).reserve("c0", "o2", "SKU-1:1").created();
        rejects(liveness(fixtures, true), 1, "c0 cancel o1 stayed without a definite answer to the end");
    }

    @Test
    void doesNotJudgeAnOperationTheLoadEndedOnBeforeItsDeadline() {
        HistoryFixtures fixtures = faultAt5HealedAt10().load("c1", "SKU-1", 5_000, 15_000, 200, "ok");
        fixtures.at(6_000).cancel("c0", "o1").info();
        accepts(liveness(fixtures, true));
    }

    @Test
    void rejectsFaultFreeRunWithoutMetrics() {
        rejects(liveness(history().sku("SKU-1", 10).load("c0", "SKU-1", 0, 1_000, 100, "ok"), false), 1,
                "no faults planned, but no metrics were recorded");
    }

    @Test
    void acceptsFaultFreeStretchBeforeTheFirstFaultThatStayedOnTheHotStore() {
        RuleResult result = liveness(history().sku("SKU-1", 10).load("c0", "SKU-1", 0, 5_000, 100, "ok")
                .at(5_000).warmUpMetrics("a", 0, 0)
                .fault("kill-redis").load("c0", "SKU-1", 5_000, 40_000, 200, "ok")
                .at(10_000).heal("kill-redis"), true);
        accepts(result);
        assertThat(result.summary()).contains("before the first fault: 51/51 answers definite (100.0%), "
                + "0 database fallbacks, 0 takeovers");
    }

    @Test
    void rejectsTakeoverInTheFaultFreeStretchBeforeTheFirstFault() {
        rejects(liveness(history().sku("SKU-1", 10).load("c0", "SKU-1", 0, 5_000, 100, "ok")
                .at(5_000).warmUpMetrics("a", 3, 1)
                .fault("kill-redis").load("c0", "SKU-1", 5_000, 40_000, 200, "ok")
                .at(10_000).heal("kill-redis"), true), 1,
                "before the first fault, yet 3 database fallbacks, 1 takeovers");
    }

    @Test
    void rejectsUnavailableAnswersInTheFaultFreeStretchEvenIfTheFaultsLaterRecover() {
        // half the answers before any fault were 503: the liveness of the start counts too
        rejects(liveness(history().sku("SKU-1", 10)
                .load("c0", "SKU-1", 0, 2_500, 100, "ok").load("c0", "SKU-1", 2_500, 5_000, 100, "unavailable")
                .at(5_000).warmUpMetrics("a", 0, 0)
                .fault("kill-redis").load("c0", "SKU-1", 5_000, 40_000, 200, "ok")
                .at(10_000).heal("kill-redis"), true), 1,
                "before the first fault: 26/51 answers definite (51.0%), below 100.0%");
    }
}
