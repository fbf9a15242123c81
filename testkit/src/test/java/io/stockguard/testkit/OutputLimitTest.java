package io.stockguard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OutputLimitTest {

    @Test
    void passesOutputUpToTheLimitAndDropsTheRestWithOneNotice() {
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        OutputLimit.Budget budget = new OutputLimit.Budget(100);
        PrintStream capped = OutputLimit.capped(new PrintStream(seen, true, StandardCharsets.UTF_8), budget);

        capped.print("x".repeat(60));
        assertThat(budget.exceeded()).isFalse();
        for (int i = 0; i < 1_000; i++) {
            capped.print("y".repeat(60));
        }

        String text = seen.toString(StandardCharsets.UTF_8);
        assertThat(budget.exceeded()).isTrue();
        assertThat(text).startsWith("x".repeat(60)).doesNotContain("yy").containsOnlyOnce("[OutputLimit]");
        assertThat(budget.written()).isEqualTo(60 + 60_000);
    }

    @Test
    void writesWithinTheLimitPassUnchanged() {
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        OutputLimit.Budget budget = new OutputLimit.Budget(1_000);
        PrintStream capped = OutputLimit.capped(new PrintStream(seen, true, StandardCharsets.UTF_8), budget);

        capped.println("a line");

        assertThat(seen.toString(StandardCharsets.UTF_8)).isEqualTo("a line" + System.lineSeparator());
        assertThat(budget.exceeded()).isFalse();
    }
}
