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
        boolean passed = new Demo(DemoOptions.parse("--minutes=2", "--no-browser", "--jar=" + JAR, "--out=" + out))
                .play();
        assertThat(passed).as("the demo's verdict (its report is under %s)", out).isTrue();
        try (var runs = Files.list(out)) {
            assertThat(runs.map(run -> run.resolve("report.html"))).anySatisfy(report ->
                    assertThat(report).isRegularFile());
        }
    }
}
