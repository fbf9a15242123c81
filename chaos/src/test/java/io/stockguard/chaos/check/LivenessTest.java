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
    void rejectsFaultFreeRunBelowNinetyNinePercentDefinite() {
        rejects(liveness(history().sku("SKU-1", 10)
                        .load("c0", "SKU-1", 0, 9_800, 100, "ok")
                        .load("c0", "SKU-1", 9_800, 10_000, 100, "info")
                        .metrics("a", 0, 0), false), 1,
                "no faults planned: 98/100 answers definite (98.0%), below 99.0%", "c0       INFO   read-sku");
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
                "before the first fault: 26/51 answers definite (51.0%), below 99.0%");
    }
}
