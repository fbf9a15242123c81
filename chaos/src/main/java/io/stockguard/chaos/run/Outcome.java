package io.stockguard.chaos.run;

import io.stockguard.chaos.check.CheckOptions;
import io.stockguard.chaos.check.Checker;
import io.stockguard.chaos.check.RuleResult;
import io.stockguard.chaos.check.Verdict;
import io.stockguard.chaos.report.HtmlReport;
import io.stockguard.chaos.report.TextReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;

/**
 * A run's verdict with its reports written: the text (also printed) and the HTML page, both in
 * the run's folder. A run passes when every rule held, except rules known to fail on its tier.
 */
public record Outcome(Run run, Verdict verdict, String text, List<String> unexpectedFailures) {

    public static Outcome judge(Run run, Schedule schedule, Run.Recorded recorded) {
        CheckOptions options = CheckOptions.defaults(!schedule.faultFree());
        Verdict verdict = new Checker().check(recorded.history(), options);
        String title = "StockGuard chaos: " + run.tier().label() + " tier (" + run.tier().option() + "), "
                + run.deployment().label() + ", seed " + run.seed() + ", faults "
                + schedule.faults().stream().map(f -> f.name()).toList();
        StringBuilder text = new StringBuilder(TextReport.render(recorded.history(), verdict, title, options));
        List<String> unexpected = verdict.failures().stream().map(RuleResult::rule)
                .filter(rule -> !KnownFailures.isKnown(run.tier(), rule)).toList();
        text.append(String.format("%nstart-up %d s; journal drained %s after the load%n",
                recorded.startup().toSeconds(),
                recorded.drained().map(d -> "in " + d.toMillis() + " ms").orElse("NOT within its bound")));
        text.append(Stalls.describe(recorded.stalls()));
        verdict.failures().forEach(failure -> {
            if (KnownFailures.isKnown(run.tier(), failure.rule())) {
                text.append("known failure (listed in KnownFailures, not counted): ").append(failure.rule())
                        .append('\n');
            }
        });
        text.append(unexpected.isEmpty() ? "PASS" : "FAIL: " + unexpected).append(String.format(
                " -- rerun: ./stockguard chaos --tier=%s %s --seed=%d --seeds=1 --faults=%s%n", run.tier().option(),
                run.deployment().options(), run.seed(), schedule.faultFree() ? "none" : String.join(",",
                        schedule.faults().stream().map(f -> f.name()).toList())));
        try {
            Files.writeString(run.folder().resolve("report.txt"), text);
            HtmlReport.write(run.folder().resolve("report.html"), recorded.history(), verdict, title, options);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reports of " + run.folder(), e);
        }
        return new Outcome(run, verdict, text.toString(), unexpected);
    }

    public boolean passed() {
        return unexpectedFailures.isEmpty();
    }

    /** One line per run, for the end of a multi-run invocation. */
    public static String summary(List<Outcome> outcomes) {
        StringBuilder text = new StringBuilder("\nchaos summary\n");
        for (Outcome outcome : outcomes) {
            text.append(String.format("  %-8s %-40s seed %-4d %s%s%n", outcome.run().tier().label(),
                    outcome.run().deployment().label(), outcome.run().seed(),
                    outcome.passed() ? "PASS" : "FAIL " + outcome.unexpectedFailures(),
                    outcome.verdict().valid() ? "" : " (failed rules: " + outcome.verdict().failures().stream()
                            .map(RuleResult::rule).toList() + ")"));
        }
        return text.toString();
    }
}
