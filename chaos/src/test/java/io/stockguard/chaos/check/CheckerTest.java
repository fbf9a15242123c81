package io.stockguard.chaos.check;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static io.stockguard.chaos.check.Scenarios.accepts;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.chaos.history.History;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckerTest {

    @Test
    void namesItsNineRulesInOrder() {
        assertThat(new Checker().ruleNames()).containsExactly("no-lost-ack", "not-applied-means-not-applied",
                "idempotency", "read-your-writes", "bank", "drift", "liveness", "customer-limit", "clear-answers");
    }

    @Test
    void acceptsCleanRunUnderEveryRule() {
        Verdict verdict = Scenarios.check(Scenarios.cleanRun());
        verdict.results().forEach(Scenarios::accepts);
        assertThat(verdict.valid()).isTrue();
        assertThat(verdict.results()).hasSize(9);
    }

    @Test
    void judgesHistoryReadBackFromItsFileTheSame(@TempDir Path dir) {
        Path file = dir.resolve("history.jsonl");
        Scenarios.cleanRun().build().write(file);
        Verdict verdict = Scenarios.check(History.read(file));
        verdict.results().forEach(Scenarios::accepts);
    }

    @Test
    void invalidWhenAnyRuleFails() {
        Verdict verdict = Scenarios.check(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").created()
                .at(60_000).finalUnknown("o1").settled("SKU-1", 10, 10, 0, 0));
        assertThat(verdict.valid()).isFalse();
        assertThat(verdict.failures()).extracting(RuleResult::rule).contains("no-lost-ack");
        accepts(verdict.result("drift"));
    }
}
