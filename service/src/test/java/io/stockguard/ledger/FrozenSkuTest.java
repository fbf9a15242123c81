package io.stockguard.ledger;

import static io.stockguard.ledger.JournalEvents.A;
import static io.stockguard.ledger.JournalEvents.bucket;
import static io.stockguard.ledger.JournalEvents.reserve;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventOutcome;
import io.stockguard.ledger.Attempt;
import io.stockguard.stock.SkuMode;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FrozenSkuTest {

    /** The SKU's mode × the synchronous journal × the attempt, and whether the sale passes. */
    static Stream<Arguments> sales() {
        return Stream.of(
                Arguments.of(SkuMode.FROZEN, true, Attempt.FIRST, false),
                Arguments.of(SkuMode.FROZEN, true, Attempt.RETRY, true),
                Arguments.of(SkuMode.FROZEN, false, Attempt.FIRST, true),
                Arguments.of(SkuMode.FROZEN, false, Attempt.RETRY, true),
                Arguments.of(SkuMode.NORMAL, true, Attempt.FIRST, true),
                Arguments.of(SkuMode.THROTTLED, true, Attempt.FIRST, true));
    }

    @ParameterizedTest(name = "{0}, strict {1}, {2} attempt: passes {3}")
    @MethodSource("sales")
    void onlyTheSynchronousJournalRefusesASaleOfAFrozenSkuToItsCaller(SkuMode mode, boolean strict, Attempt attempt,
            boolean passes) {
        Verdict verdict = FrozenSku.judge(reserve("e1", "o1", 2), bucket(A, mode, 10, 0, 0, 10), strict, attempt);

        assertThat(verdict).isEqualTo(passes ? Verdict.PASS : new Verdict.Answer(new EventOutcome.Rejected(
                EventOutcome.Reason.SKU_FROZEN, "SKU rule-a is frozen")));
    }
}
