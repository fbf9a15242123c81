package io.stockguard.chaos.report;

import io.stockguard.chaos.check.CheckOptions;
import io.stockguard.chaos.check.OpText;
import io.stockguard.chaos.check.RuleResult;
import io.stockguard.chaos.check.Verdict;
import io.stockguard.chaos.history.History;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The verdict as plain text, for a terminal or a CI log: each rule PASS / FAIL with its summary
 * and first counter-example, each fault's figures, and the answers second by second.
 */
public final class TextReport {

    private TextReport() {
    }

    public static String render(History history, Verdict verdict, String title) {
        return render(history, verdict, title, CheckOptions.defaults(true));
    }

    public static String render(History history, Verdict verdict, String title, CheckOptions options) {
        Timeline timeline = Timeline.of(history, options);
        StringBuilder out = new StringBuilder();
        out.append("StockGuard chaos run: ").append(title).append('\n');
        out.append(verdict.valid() ? "VALID: every rule holds" : "INVALID: " + verdict.failures().size() + " of "
                + verdict.results().size() + " rules failed").append("\n\n");
        for (RuleResult result : verdict.results()) {
            out.append(result.passed() ? "PASS " : "FAIL ").append(result.rule()).append(": ").append(result.summary())
                    .append('\n');
            if (!result.passed() && !result.counterExample().isEmpty()) {
                out.append(indent(result.counterExample())).append('\n');
            }
        }
        out.append("\nFaults\n");
        if (timeline.faults().isEmpty()) {
            out.append("  none\n");
        }
        for (Timeline.Fault fault : timeline.faults()) {
            out.append("  ").append(fault.span().fault());
            if (fault.span().detail() != null) {
                out.append(" (").append(fault.span().detail()).append(')');
            }
            out.append(String.format(Locale.ROOT, ": %s to %s, %d answers, %.1f%% definite; %s%n",
                    OpText.seconds(fault.span().startedAt()),
                    fault.span().healed() ? OpText.seconds(fault.span().healedAt()) : "the end",
                    fault.answers(), fault.definiteShare() * 100, recovered(fault)));
        }
        out.append("\nAnswers per second (ref = refused 4xx, 503 = unavailable, unk = outcome unknown;"
                + " * = under a fault)\n");
        out.append(String.format(Locale.ROOT, "%6s %6s %5s %5s %5s  %s%n", "s", "ok", "ref", "503", "unk", "nemesis"));
        for (Timeline.Second second : timeline.seconds()) {
            out.append(String.format(Locale.ROOT, "%5d%s %6d %5d %5d %5d  %s", second.second(),
                    second.underFault() ? "*" : " ", second.ok(), second.refused(), second.unavailable(),
                    second.unknown(), String.join(", ", second.marks())).stripTrailing()).append('\n');
        }
        return out.toString();
    }

    public static Path write(Path file, History history, Verdict verdict, String title) {
        return write(file, history, verdict, title, CheckOptions.defaults(true));
    }

    /** Writes the report; {@code options} give the share of definite answers a recovered second needs. */
    public static Path write(Path file, History history, Verdict verdict, String title, CheckOptions options) {
        try {
            return Files.writeString(file, render(history, verdict, title, options));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the text report to " + file, e);
        }
    }

    /** "recovered 3 s after the heal", or why there is no such figure. */
    static String recovered(Timeline.Fault fault) {
        return fault.span().healed() ? fault.recovery().describe() : "never healed";
    }

    private static String indent(String text) {
        return text.lines().map(line -> "     " + line).reduce((a, b) -> a + "\n" + b).orElse("");
    }
}
