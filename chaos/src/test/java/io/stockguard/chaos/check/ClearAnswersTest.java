package io.stockguard.chaos.check;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static io.stockguard.chaos.check.Scenarios.accepts;
import static io.stockguard.chaos.check.Scenarios.rejects;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClearAnswersTest {

    private static RuleResult answers(HistoryFixtures fixtures) {
        return Scenarios.check(fixtures).result(ClearAnswers.NAME);
    }

    @Test
    void acceptsTheTwo503sThePromisesAndNoAnswerAtAll() {
        RuleResult result = answers(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").unavailable()
                .reserve("c0", "o1", "SKU-1:2").inDoubt(503, "OUTCOME_UNKNOWN")
                .reserve("c0", "o1", "SKU-1:2").info()
                .reserve("c0", "o1", "SKU-1:2").created()
                .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:2").settled("SKU-1", 10, 8, 2, 0));
        accepts(result);
        assertThat(result.summary()).contains("2 of them 5xx");
    }

    @Test
    void rejectsAn500EvenWhenItsRetrySettlesTheOrder() {
        rejects(answers(history().sku("SKU-1", 10)
                .reserve("c6", "o1", "SKU-1:2").inDoubt(500, "INTERNAL")
                .reserve("c6", "o1", "SKU-1:2").created()
                .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:2").settled("SKU-1", 10, 8, 2, 0)), 1,
                "c6 reserve was answered 500 INTERNAL", "o1");
    }

    @Test
    void rejectsA503WithoutAPromisedCodeAndAnyOther5xx() {
        rejects(answers(history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").inDoubt(503, null)
                .reserve("c0", "o1", "SKU-1:2").inDoubt(502, null)
                .reserve("c0", "o1", "SKU-1:2").created()
                .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:2").settled("SKU-1", 10, 8, 2, 0)), 2,
                "answered 503 null");
    }
}
