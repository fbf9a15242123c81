package io.stockguard.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.chaos.run.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The quick chaos profile, as {@code ./stockguard chaos --quick} runs it: every tier under a short
 * schedule of its faults, the Redis tiers once with the settings a new user gets (no replica
 * acknowledgement) and once waiting for the replica, each history checked. Fails on any rule that breaks, except the ones
 * {@link io.stockguard.chaos.run.KnownFailures} lists; the reports are in
 * {@code chaos/target/chaos-results}.
 */
class ChaosQuickIT {

    private static final Path JAR = Path.of("..", "service", "target", "stockguard-exec.jar");

    @Test
    void everyTierKeepsItsInvariantsUnderTheQuickFaultSchedule() {
        assertThat(JAR).as("the service jar the suite runs").satisfies(jar -> assertThat(Files.isRegularFile(jar))
                .isTrue());
        Options options = Options.parse("--quick", "--jar=" + JAR, "--out=" + Path.of("target", "chaos-results"));
        List<Outcome> outcomes = Chaos.run(options);
        assertThat(outcomes).hasSize(java.util.Arrays.stream(Tier.values()).mapToInt(t -> options.deployments(t).size())
                .sum());
        assertThat(outcomes).filteredOn(o -> o.run().tier().hasRedis()).extracting(o -> o.run().deployment()
                .waitReplicas()).as("the default and the recommended setting, on each Redis tier").containsOnly(0, 1);
        // Only the broken runs, each with its failed rules and their counter-examples: CI keeps the
        // first part of a failure's message, and a message that began with the passing runs' whole
        // reports once hid which run had failed.
        List<String> broken = outcomes.stream().filter(outcome -> !outcome.unexpectedFailures().isEmpty())
                .map(ChaosQuickIT::brokenRun).toList();
        assertThat(broken).as("runs with rules broken (not known failures); every report is in %s",
                Path.of("target", "chaos-results").toAbsolutePath()).isEmpty();
    }

    /** The run, each failed rule with its summary and counter-example, and the command that reruns it. */
    private static String brokenRun(Outcome outcome) {
        StringBuilder text = new StringBuilder(outcome.run().tier().label() + " tier, "
                + outcome.run().deployment().label() + ", seed " + outcome.run().seed());
        outcome.verdict().failures().stream().filter(failure -> outcome.unexpectedFailures().contains(failure.rule()))
                .forEach(failure -> text.append("\nFAIL ").append(failure.rule()).append(": ")
                        .append(failure.summary().length() > 600 ? failure.summary().substring(0, 600) + " …"
                                : failure.summary())
                        .append('\n').append(failure.counterExample()));
        outcome.text().lines().filter(line -> line.contains("-- rerun:")).findFirst()
                .ifPresent(rerun -> text.append('\n').append(rerun));
        return text.toString();
    }
}
