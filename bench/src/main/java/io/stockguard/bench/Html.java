package io.stockguard.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The HTML report: self-contained (inline SVG charts, no scripts, no CDN), so it opens from the
 * results folder on any machine.
 */
final class Html {

    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
            "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#aa0066", "#006d5b", "#b8860b", "#4b0082",
            "#808000", "#ff1493"};

    private Html() {
    }

    static String page(BenchOptions options, List<Contender> contenders, List<RunResult> results, String machine) {
        StringBuilder html = new StringBuilder("""
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>StockGuard bench</title>
                <style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:1200px}
                table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}
                td:nth-child(-n+2),th{text-align:left}.bad{background:#fdd}svg{background:#fafafa;margin:1rem 0}</style>
                </head><body>""");
        html.append("<h1>StockGuard bench (").append(options.size()).append(")</h1><p>").append(escape(machine))
                .append(". Every contender ran against the same servers, with the same client threads and the same "
                        + "requests, in this one run.</p><h2>Contenders</h2><ul>");
        for (Contender contender : contenders) {
            html.append("<li><b>").append(contender.name()).append("</b>: ").append(escape(contender.description()))
                    .append(contender.claimsCorrectness() ? "" : " <i>(naive: expected to oversell)</i>")
                    .append("</li>");
        }
        html.append("</ul>");
        html.append("<h2>Hot SKU: attempts per second by concurrency</h2>")
                .append(lineChart(Report.byContender(results, "hot-sku")));
        for (Scenario scenario : options.scenarios()) {
            List<RunResult> rows = results.stream().filter(r -> r.scenario().equals(scenario.name())).toList();
            if (rows.isEmpty()) {
                continue;
            }
            int clients = rows.stream().mapToInt(RunResult::clients).max().orElse(0);
            List<RunResult> atMax = rows.stream().filter(r -> r.clients() == clients).toList();
            html.append("<h2>").append(scenario.name()).append(" at ").append(clients).append(" clients</h2>")
                    .append(scenario.readsOnly() ? "<h3>Stock query latency percentiles (ms)</h3>"
                            : "<h3>Latency percentiles (ms)</h3>").append(latencyBars(atMax));
            if (!scenario.readsOnly()) {
                html.append("<h3>Oversold units</h3>").append(bars(atMax, RunResult::oversoldUnits));
            }
        }
        html.append("<h2>All results</h2><table><tr><th>scenario</th><th>contender</th><th>clients</th>"
                + "<th>attempts/s</th><th>sold/s</th><th>p50 ms</th><th>p99 ms</th><th>p99.9 ms</th><th>oversold</th>"
                + "<th>unaccounted</th><th>false sold-outs</th><th>gave up</th><th>retries</th><th>% of ceiling</th>"
                + "<th>spread</th><th>notes</th></tr>");
        for (RunResult r : results) {
            boolean bad = r.oversoldUnits() > 0 || r.unaccountedUnits() != 0;
            html.append(String.format(Locale.ROOT, "<tr%s><td>%s</td><td>%s%s</td><td>%d</td><td>%.0f</td><td>%.0f</td>"
                            + "<td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td>"
                            + "<td>%d</td><td>%s</td><td>%s</td><td style=\"text-align:left\">%s</td></tr>",
                    bad ? " class=\"bad\"" : "", r.scenario(), r.contender(),
                    r.stoppedEarly() ? "*" : "", r.clients(), r.attemptsPerSecond(), r.soldPerSecond(), r.p50Millis(),
                    r.p99Millis(), r.p999Millis(), r.oversoldUnits(), r.unaccountedUnits(), r.falseSoldOuts(),
                    r.gaveUp(), r.retries(), r.percentOfCeiling() < 0 ? "" : String.format(Locale.ROOT, "%.0f%%",
                            r.percentOfCeiling()), r.attemptsPerSecondRepeats().size() < 2 ? ""
                            : String.format(Locale.ROOT, "%.0f%%", r.spreadPercent()), escape(r.notes())));
        }
        return html.append("</table><p>").append(escape(Report.legend(options))).append("</p></body></html>")
                .toString();
    }

    private static String lineChart(Map<String, List<RunResult>> series) {
        double max = series.values().stream().flatMap(List::stream).mapToDouble(RunResult::attemptsPerSecond).max()
                .orElse(1);
        List<Integer> levels = series.values().stream().flatMap(List::stream).map(RunResult::clients).distinct()
                .sorted().toList();
        if (levels.size() < 2) {
            return "<p>(one concurrency level only)</p>";
        }
        int width = 900;
        int height = 360;
        StringBuilder svg = new StringBuilder(String.format("<svg width=\"%d\" height=\"%d\" role=\"img\" "
                + "aria-label=\"attempts per second by clients\">", width + 220, height + 40));
        int i = 0;
        for (Map.Entry<String, List<RunResult>> entry : series.entrySet()) {
            String colour = COLOURS[i % COLOURS.length];
            StringBuilder points = new StringBuilder();
            for (RunResult r : entry.getValue()) {
                double x = 40 + (width - 60) * levels.indexOf(r.clients()) / (double) (levels.size() - 1);
                double y = height - (height - 20) * Math.log1p(r.attemptsPerSecond()) / Math.log1p(max);
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            }
            svg.append("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"").append(colour).append("\" points=\"")
                    .append(points).append("\"/>");
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\" font-size=\"12\">%s</text>",
                    width - 10, 20 + 16 * i, colour, entry.getKey()));
            i++;
        }
        for (int level = 0; level < levels.size(); level++) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%.0f\" y=\"%d\" font-size=\"12\">%d clients</text>",
                    40 + (width - 60) * level / (double) (levels.size() - 1) - 20, height + 30, levels.get(level)));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"14\" font-size=\"12\">log scale, max %.0f/s</text>",
                max));
        return svg.append("</svg>").toString();
    }

    private static String latencyBars(List<RunResult> rows) {
        double max = rows.stream().mapToDouble(RunResult::p999Millis).max().orElse(1);
        StringBuilder svg = new StringBuilder(String.format("<svg width=\"1000\" height=\"%d\" role=\"img\" "
                + "aria-label=\"latency percentiles\">", 30 + 24 * rows.size()));
        int y = 20;
        for (RunResult r : rows) {
            svg.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"%d\" font-size=\"12\">%s</text>", y + 12,
                    r.contender()));
            double[] values = {r.p50Millis(), r.p99Millis(), r.p999Millis()};
            String[] colours = {"#2ca02c", "#ff7f0e", "#d62728"};
            for (int p = 2; p >= 0; p--) {
                double w = 700 * Math.log1p(values[p]) / Math.log1p(max);
                svg.append(String.format(Locale.ROOT, "<rect x=\"200\" y=\"%d\" width=\"%.1f\" height=\"16\" "
                        + "fill=\"%s\"/>", y, w, colours[p]));
            }
            svg.append(String.format(Locale.ROOT, "<text x=\"910\" y=\"%d\" font-size=\"11\">%.2f / %.2f / %.2f</text>",
                    y + 12, values[0], values[1], values[2]));
            y += 24;
        }
        return svg.append("</svg><p>green p50, orange p99, red p99.9 (log scale)</p>").toString();
    }

    private static String bars(List<RunResult> rows, java.util.function.ToLongFunction<RunResult> value) {
        long max = Math.max(1, rows.stream().mapToLong(value).max().orElse(1));
        StringBuilder svg = new StringBuilder(String.format("<svg width=\"1000\" height=\"%d\" role=\"img\" "
                + "aria-label=\"oversold units\">", 30 + 24 * rows.size()));
        int y = 20;
        for (RunResult r : rows) {
            long v = value.applyAsLong(r);
            svg.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"%d\" font-size=\"12\">%s</text>"
                            + "<rect x=\"200\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"%s\"/>"
                            + "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%d</text>", y + 12, r.contender(), y,
                    700.0 * v / max, v > 0 ? "#d62728" : "#2ca02c", 205 + 700.0 * v / max, y + 12, v));
            y += 24;
        }
        return svg.append("</svg>").toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
