package io.stockguard.chaos.report;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.chaos.check.Checker;
import io.stockguard.chaos.check.CheckOptions;
import io.stockguard.chaos.check.Scenarios;
import io.stockguard.chaos.check.Verdict;
import io.stockguard.chaos.history.History;
import org.junit.jupiter.api.Test;

class TextReportTest {

    private static final String TITLE = "standard tier, seed 42, profile kill-redis";

    @Test
    void marksTheFaultAndItsHealInTheTimeline() {
        History history = Scenarios.cleanRun().build();
        String text = TextReport.render(history, Scenarios.check(history), TITLE);
        assertThat(text).contains("StockGuard chaos run: " + TITLE, "VALID: every rule holds");
        assertThat(text.lines()).anyMatch(line -> line.matches("\\s+5\\*( +\\d+){4} +kill-redis"));
        assertThat(text.lines()).anyMatch(line -> line.matches("\\s+8\\*.*heal-kill-redis"));
        assertThat(text.lines()).anyMatch(line -> line.matches("\\s+20 .*") && !line.contains("*"));
        assertThat(text).contains("kill-redis: 5.000s to 8.010s,", "definite; recovered 0 s after the heal");
    }

    @Test
    void printsEveryRuleAndTheFirstCounterExampleOfAFailure() {
        History history = history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").created()
                .at(60_000).finalUnknown("o1").settled("SKU-1", 10, 10, 0, 0).build();
        Verdict verdict = new Checker().check(history, CheckOptions.defaults(true));
        String text = TextReport.render(history, verdict, TITLE);
        assertThat(text).contains("INVALID: 1 of 9 rules failed", "FAIL no-lost-ack: 1 of 1 orders lost",
                "     order o1: reserve acknowledged", "PASS bank:", "PASS drift:", "Faults\n  none");
        new Checker().ruleNames().forEach(rule -> assertThat(text).contains(rule));
    }
}
