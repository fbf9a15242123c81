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
import java.util.List;
import java.util.Locale;

/**
 * The verdict as one self-contained HTML page (no scripts, no fetched assets, so it can be kept as
 * a CI artifact and opened anywhere): the rules, an inline SVG of the answers per second stacked
 * by outcome with the faults shaded and named, and each fault's figures.
 */
public final class HtmlReport {

    private static final int PLOT_HEIGHT = 220;
    private static final int LEFT = 48;
    private static final int TOP = 28;
    private static final int BOTTOM = 28;
    /** Outcome colours, bottom of the stack first. */
    private static final List<String> COLOURS = List.of("#2e7d32", "#f9a825", "#c62828", "#757575");
    private static final List<String> LABELS = List.of("ok", "refused (4xx)", "unavailable (503)", "unknown");

    private HtmlReport() {
    }

    public static String render(History history, Verdict verdict, String title) {
        return render(history, verdict, title, CheckOptions.defaults(true));
    }

    public static String render(History history, Verdict verdict, String title, CheckOptions options) {
        Timeline timeline = Timeline.of(history, options);
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>StockGuard chaos: ")
                .append(esc(title)).append("</title>\n<style>\n")
                .append("body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}")
                .append("table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.3em .6em;")
                .append("text-align:left;vertical-align:top}.pass{color:#2e7d32;font-weight:bold}")
                .append(".fail{color:#c62828;font-weight:bold}.verdict{font-size:1.3em;padding:.4em .8em;")
                .append("display:inline-block;border-radius:4px;color:#fff}.valid{background:#2e7d32}")
                .append(".invalid{background:#c62828}")
                .append("pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:12px}")
                .append(".legend span{display:inline-block;width:.9em;height:.9em;margin:0 .3em 0 1em;")
                .append("vertical-align:middle}\n</style></head><body>\n");
        h.append("<h1>StockGuard chaos run</h1>\n<p>").append(esc(title)).append("</p>\n");
        h.append(verdict.valid() ? "<p class=\"verdict valid\">VALID: every rule holds</p>\n"
                : "<p class=\"verdict invalid\">INVALID: " + verdict.failures().size() + " of "
                        + verdict.results().size() + " rules failed</p>\n");
        rules(h, verdict);
        h.append("<h2>Answers per second</h2>\n<div style=\"overflow-x:auto\">\n");
        chart(h, timeline);
        h.append("</div>\n");
        h.append("<p class=\"legend\">");
        for (int i = 0; i < LABELS.size(); i++) {
            h.append("<span style=\"background:").append(COLOURS.get(i)).append("\"></span>").append(LABELS.get(i));
        }
        h.append("<span style=\"background:#c62828;opacity:.15\"></span>fault in effect</p>\n");
        faults(h, timeline);
        return h.append("</body></html>\n").toString();
    }

    public static Path write(Path file, History history, Verdict verdict, String title) {
        return write(file, history, verdict, title, CheckOptions.defaults(true));
    }

    /** Writes the report; {@code options} give the share of definite answers a recovered second needs. */
    public static Path write(Path file, History history, Verdict verdict, String title, CheckOptions options) {
        try {
            return Files.writeString(file, render(history, verdict, title, options));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the HTML report to " + file, e);
        }
    }

    private static void rules(StringBuilder h, Verdict verdict) {
        h.append("<h2>Rules</h2>\n<table><tr><th>rule</th><th>result</th><th>violations</th><th>summary</th></tr>\n");
        for (RuleResult r : verdict.results()) {
            h.append("<tr><td>").append(esc(r.rule())).append("</td><td class=\"").append(r.passed() ? "pass" : "fail")
                    .append("\">").append(r.passed() ? "PASS" : "FAIL").append("</td><td>").append(r.violations())
                    .append("</td><td>").append(esc(r.summary())).append("</td></tr>\n");
        }
        h.append("</table>\n");
        for (RuleResult r : verdict.failures()) {
            if (!r.counterExample().isEmpty()) {
                h.append("<h3>").append(esc(r.rule())).append(": first counter-example</h3>\n<pre>")
                        .append(esc(r.counterExample())).append("</pre>\n");
            }
        }
    }

    private static void chart(StringBuilder h, Timeline timeline) {
        List<Timeline.Second> seconds = timeline.seconds();
        double bar = Math.max(2, Math.min(16, 1200.0 / Math.max(1, seconds.size())));
        int width = (int) Math.ceil(LEFT + seconds.size() * bar + 16);
        int height = TOP + PLOT_HEIGHT + BOTTOM;
        double peak = Math.max(1, timeline.peak());
        double unit = PLOT_HEIGHT / peak;
        int base = TOP + PLOT_HEIGHT;
        h.append(String.format(Locale.ROOT, "<svg width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"10\" role=\"img\" "
                + "aria-label=\"answers per second by outcome\">%n", width, height, width, height));
        for (Timeline.Fault fault : timeline.faults()) {
            double x = LEFT + fault.span().startedAt() / 1000.0 * bar;
            long millis = fault.span().endedAt(timeline.endMillis()) - fault.span().startedAt();
            double w = Math.max(1, millis / 1000.0 * bar);
            h.append(String.format(Locale.ROOT, "<rect class=\"fault\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
                    + "height=\"%d\" fill=\"#c62828\" fill-opacity=\"0.12\"><title>%s</title></rect>%n", x, TOP, w,
                    PLOT_HEIGHT, esc(fault.span().fault() + (fault.span().detail() == null ? "" : ": " + fault.span().detail()))));
            h.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" fill=\"#c62828\">%s</text>%n", x + 2,
                    TOP - 6, esc(fault.span().fault())));
        }
        for (Timeline.Second s : seconds) {
            double x = LEFT + s.second() * bar;
            double y = base;
            for (Timeline.Outcome outcome : Timeline.Outcome.values()) {
                int count = s.count(outcome);
                if (count == 0) {
                    continue;
                }
                double hgt = count * unit;
                y -= hgt;
                h.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                        + "fill=\"%s\"><title>%ds: %d %s</title></rect>%n", x, y, Math.max(1, bar - 0.5), hgt,
                        COLOURS.get(outcome.ordinal()), s.second(), count, LABELS.get(outcome.ordinal())));
            }
        }
        h.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>%n", LEFT,
                base, width - 8, base));
        h.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>%n", LEFT,
                TOP, LEFT, base));
        h.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>%n", LEFT - 4,
                TOP + 4, (int) peak));
        h.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>%n", LEFT - 4, base));
        int step = tickStep(seconds.size());
        for (int s = 0; s < seconds.size(); s += step) {
            h.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%ds</text>%n",
                    LEFT + (s + 0.5) * bar, base + 16, s));
        }
        h.append("</svg>\n");
    }

    private static void faults(StringBuilder h, Timeline timeline) {
        h.append("<h2>Faults</h2>\n");
        if (timeline.faults().isEmpty()) {
            h.append("<p>none</p>\n");
            return;
        }
        h.append("<table><tr><th>fault</th><th>from</th><th>healed</th><th>answers</th><th>definite</th>"
                + "<th>time to recover</th></tr>\n");
        for (Timeline.Fault f : timeline.faults()) {
            h.append("<tr><td>").append(esc(f.span().fault()))
                    .append(f.span().detail() == null ? "" : "<br><small>" + esc(f.span().detail()) + "</small>")
                    .append("</td><td>").append(OpText.seconds(f.span().startedAt())).append("</td><td>")
                    .append(f.span().healed() ? OpText.seconds(f.span().healedAt()) : "never").append("</td><td>")
                    .append(f.answers()).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.1f%%", f.definiteShare() * 100)).append("</td><td>")
                    .append(esc(TextReport.recovered(f))).append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    /** Seconds between axis labels: about a dozen labels, on round numbers. */
    private static int tickStep(int seconds) {
        for (int step : new int[] {1, 2, 5, 10, 15, 30, 60, 120, 300, 600}) {
            if (seconds / step <= 15) {
                return step;
            }
        }
        return 1200;
    }

    /** Adds {@code html} at the end of a written report's page (the demo's own part, say). */
    public static void append(Path file, String html) {
        try {
            String page = Files.readString(file);
            int end = page.lastIndexOf("</body>");
            Files.writeString(file, end < 0 ? page + html : page.substring(0, end) + html + page.substring(end));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot add to the HTML report " + file, e);
        }
    }

    public static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
