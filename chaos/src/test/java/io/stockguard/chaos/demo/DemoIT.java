package io.stockguard.chaos.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The demo as CI runs it: {@code ./stockguard demo --minutes=2 --no-browser}, which must reach a
 * passing verdict (every incident verified, every rule of the checker holding) and leave its report.
 */
class DemoIT {

    private static final Path JAR = Path.of("..", "service", "target", "stockguard-exec.jar");

    @Test
    void aTwoMinutePeakPassesEveryVerdict() throws Exception {
        Path out = Path.of("target", "demo-results");
        Demo.Ending ending = new Demo(DemoOptions.parse("--minutes=2", "--no-browser", "--jar=" + JAR,
                "--out=" + out)).play();
        assertThat(ending.failures()).as("the demo's failed verdicts (its report is under %s)", out).isEmpty();
        try (var runs = Files.list(out)) {
            assertThat(runs.map(run -> run.resolve("report.html"))).anySatisfy(report ->
                    assertThat(report).isRegularFile());
        }
    }
}
