package io.stockguard.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.chaos.demo.Demo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The chaos suite's and the demo's usage come from the files the launcher prints for --help, and
 * --help answers with them without running anything (main returns, so the exit code is 0).
 */
class UsageTest {

    @Test
    void theUsageIsTheFileBesideTheOptions() {
        assertThat(Options.USAGE).startsWith("usage: ./stockguard chaos").contains("--wait-replicas");
        assertThat(Usage.read(Demo.class)).startsWith("usage: ./stockguard demo").contains("--minutes");
    }

    @Test
    void aClassWithoutAUsageFileIsAnErrorNotAnEmptyHelp() {
        assertThatThrownBy(() -> Usage.read(String.class)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no usage.txt beside java.lang.String");
    }

    @Test
    void helpPrintsTheUsageAndRunsNothing() {
        assertThat(printed(() -> Chaos.main(new String[] {"--quick", "--help"}))).isEqualTo(Options.USAGE + "\n");
        assertThat(printed(() -> Demo.main(new String[] {"-h"}))).startsWith("usage: ./stockguard demo");
    }

    @Test
    void anUnknownOptionIsRefusedWithTheUsage() {
        assertThatThrownBy(() -> Options.parse("--colour=blue")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown option --colour=blue").hasMessageContaining(Options.USAGE);
    }

    private static String printed(Runnable action) {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
