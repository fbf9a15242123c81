package io.stockguard.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Turns run results into the stdout table, {@code results.json}, {@code summary.md} and {@code report.html}. */
final class Report {

    private static final String CEILING = "redis-lua";
    /** The service's HTTP stack in front of a ledger in memory: what the HTTP contenders are measured against. */
    static final String HTTP_CEILING = "stockguard-ceiling-http";

    private Report() {
    }

    /** Each StockGuard row's throughput as a share of the bare Lua decrement at the same scenario and clients. */
    static List<RunResult> withCeiling(List<RunResult> results) {
        List<RunResult> out = new ArrayList<>();
        for (RunResult result : results) {
            RunResult ceiling = beside(results, CEILING, result);
            boolean measured = result.family().equals("stockguard") && ceiling != null
                    && ceiling.attemptsPerSecond() > 0;
            out.add(measured ? result.withPercentOfCeiling(100 * result.attemptsPerSecond()
                    / ceiling.attemptsPerSecond()) : result);
        }
        return out;
    }

    /** {@code contender}'s result at the same scenario and clients as {@code result}, or null. */
    private static RunResult beside(List<RunResult> results, String contender, RunResult result) {
        return results.stream().filter(r -> r.contender().equals(contender) && r.scenario().equals(result.scenario())
                && r.clients() == result.clients()).findFirst().orElse(null);
    }

    /**
     * Each HTTP contender's attempts per second as a share of the HTTP ceiling's at the same scenario
     * and clients: a markdown table, empty when the ceiling was not run.
     */
    static String httpCeilingTable(List<RunResult> results) {
        StringBuilder table = new StringBuilder();
        for (RunResult result : results) {
            if (!result.contender().endsWith("-http") || result.contender().equals(HTTP_CEILING)) {
                continue;
            }
            RunResult ceiling = beside(results, HTTP_CEILING, result);
            if (ceiling == null || ceiling.attemptsPerSecond() <= 0) {
                continue;
            }
            if (table.isEmpty()) {
                table.append(String.format(Locale.ROOT, "%nAgainst the HTTP ceiling (%s):%n%n", HTTP_CEILING))
                        .append("| scenario | clients | contender | attempt/s | ceiling attempt/s | % of ceiling |\n")
                        .append("|---|---:|---|---:|---:|---:|\n");
            }
            table.append(String.format(Locale.ROOT, "| %s | %d | %s | %.0f | %.0f | %.0f%% |%n", result.scenario(),
                    result.clients(), result.contender(), result.attemptsPerSecond(), ceiling.attemptsPerSecond(),
                    100 * result.attemptsPerSecond() / ceiling.attemptsPerSecond()));
        }
        return table.toString();
    }

    /**
     * The run with the median attempts per second (its own latencies and counts with it): a real
     * run, not a mix of figures from different runs. Correctness counts (oversold, unaccounted,
     * false sold-outs, ghost reads) are the worst seen in any repetition, so one bad run is never hidden.
     */
    static RunResult median(List<RunResult> runs) {
        List<RunResult> sorted = runs.stream()
                .sorted(java.util.Comparator.comparingDouble(RunResult::attemptsPerSecond)).toList();
        RunResult median = sorted.get(sorted.size() / 2);
        long oversold = runs.stream().mapToLong(RunResult::oversoldUnits).max().orElse(0);
        long unaccounted = runs.stream().mapToLong(RunResult::unaccountedUnits)
                .reduce(0, (a, b) -> Math.abs(b) > Math.abs(a) ? b : a);
        long falseSoldOuts = runs.stream().mapToLong(RunResult::falseSoldOuts).max().orElse(0);
        long ghostReads = runs.stream().mapToLong(RunResult::ghostReads).max().orElse(0);
        double soldPerSecond = runs.stream().mapToDouble(RunResult::soldPerSecond).sorted()
                .skip(runs.size() / 2).findFirst().orElse(0);
        return new RunResult(median.scenario(), median.contender(), median.family(), median.clients(),
                median.attempts(), median.sold(), median.soldOut(), median.gaveUp(), median.errors(), median.retries(),
                median.reads(), median.seconds(), median.stoppedEarly(), median.attemptsPerSecond(), soldPerSecond,
                median.readsPerSecond(), median.p50Millis(), median.p99Millis(), median.p999Millis(),
                median.readP99Millis(), oversold, unaccounted, falseSoldOuts, ghostReads, median.percentOfCeiling(),
                runs.stream().map(RunResult::attemptsPerSecond).toList(),
                runs.stream().map(RunResult::soldPerSecond).toList(), median.notes());
    }

    static String line(RunResult r) {
        return String.format(Locale.ROOT, "  %-24s %4d clients  %9.0f att/s  %8.0f sold/s  p99 %7.2f ms  "
                        + "oversold %6d  unaccounted %6d  false sold-outs %6d  gave up %6d  errors %d%s%s",
                r.contender(), r.clients(), r.attemptsPerSecond(), r.soldPerSecond(), r.p99Millis(), r.oversoldUnits(),
                r.unaccountedUnits(), r.falseSoldOuts(), r.gaveUp(), r.errors(),
                r.reads() == 0 ? "" : String.format(Locale.ROOT, "  reads %.0f/s p99 %.2f ms ghost %d",
                        r.readsPerSecond(), r.readP99Millis(), r.ghostReads()),
                r.stoppedEarly() ? "  (time limit)" : "");
    }

    static String table(List<RunResult> results) {
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
                "| %-11s | %-22s | %7s | %9s | %8s | %7s | %7s | %8s | %8s | %9s | %10s | %7s | %7s | %8s | %7s |%n",
                "scenario", "contender", "clients", "attempt/s", "sold/s", "p50 ms", "p99 ms", "p99.9 ms", "oversold",
                "unaccount", "false s/o", "gave up", "retries", "% ceil", "spread"));
        table.append(String.format("|%s|%n", "---|".repeat(15).replaceAll("\\|$", "")));
        for (RunResult r : results) {
            table.append(String.format(Locale.ROOT,
                    "| %-11s | %-22s | %7d | %9.0f | %8.0f | %7.2f | %7.2f | %8.2f | %8d | %9d | %10d | %7d | %7d | %8s | %7s |%n",
                    r.scenario(), r.contender() + (r.stoppedEarly() ? "*" : ""), r.clients(), r.attemptsPerSecond(),
                    r.soldPerSecond(), r.p50Millis(), r.p99Millis(), r.p999Millis(), r.oversoldUnits(),
                    r.unaccountedUnits(), r.falseSoldOuts(), r.gaveUp(), r.retries(),
                    r.percentOfCeiling() < 0 ? "" : String.format(Locale.ROOT, "%.0f%%", r.percentOfCeiling()),
                    r.attemptsPerSecondRepeats().size() < 2 ? "" : String.format(Locale.ROOT, "%.0f%%",
                            r.spreadPercent())));
        }
        return table.toString();
    }

    static void write(Path folder, BenchOptions options, List<Contender> contenders, List<RunResult> results)
            throws IOException {
        Files.createDirectories(folder);
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("size", options.size());
        document.put("machine", machine());
        document.put("timeLimitSeconds", options.timeLimit().toSeconds());
        document.put("httpClient", options.http().phrase());
        document.put("network", options.network().label());
        document.put("scenarios", options.scenarios());
        document.put("contenders", contenders.stream().map(c -> Map.of("name", c.name(), "family", c.family(),
                "description", c.description(), "claimsCorrectness", c.claimsCorrectness())).toList());
        document.put("results", results);
        JsonMapper json = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
        Files.writeString(folder.resolve("results.json"), json.writeValueAsString(document));
        Files.writeString(folder.resolve("summary.md"), "Machine: " + machine() + "\n\n" + table(results)
                + httpCeilingTable(results) + "\n" + legend(options) + "\n" + notes(results));
        Files.writeString(folder.resolve("report.html"), Html.page(options, contenders, results, machine()));
    }

    /** What the table's figures mean: under it in summary.md, report.html and on the console. */
    static String legend(BenchOptions options) {
        return "* = stopped at the time limit (" + options.timeLimit().toSeconds() + " s). attempt/s: reservation "
                + "attempts answered per second, refusals included; in sku-reads, which sends stock queries only, it "
                + "counts the queries, and the latencies are theirs. % ceil: attempt/s as a share of " + CEILING
                + "'s in the same scenario and clients (in sku-reads, a Redis GET). The *-http contenders reach the "
                + "service " + options.http().phrase() + ". spread: (fastest − slowest repetition) / median of "
                + "attempt/s, over " + options.repeat() + " interleaved repetitions; the other figures are the "
                + "median repetition's. Network: " + options.network().phrase() + ".";
    }

    /** What each contender saw inside its median run (batch sizes, paths, checks, journal lag), for summary.md. */
    static String notes(List<RunResult> results) {
        StringBuilder notes = new StringBuilder();
        for (RunResult r : results) {
            if (!r.notes().isEmpty()) {
                notes.append(String.format(Locale.ROOT, "- %s, %s, %d clients: %s%n", r.scenario(), r.contender(),
                        r.clients(), r.notes()));
            }
        }
        return notes.isEmpty() ? "" : "\nNotes of the median runs:\n\n" + notes;
    }

    static String machine() {
        return Runtime.getRuntime().availableProcessors() + " cores, "
                + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB heap, " + System.getProperty("os.name")
                + " " + System.getProperty("os.arch") + ", Java " + System.getProperty("java.version");
    }

    static Map<String, List<RunResult>> byContender(List<RunResult> results, String scenario) {
        return results.stream().filter(r -> r.scenario().equals(scenario))
                .collect(Collectors.groupingBy(RunResult::contender, LinkedHashMap::new, Collectors.toList()));
    }
}
