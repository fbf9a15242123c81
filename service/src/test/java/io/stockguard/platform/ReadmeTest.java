package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README is the page a team reads first: short enough to read, and its measurements the ones
 * BENCHMARKS.md reports now, not figures from a run since superseded.
 */
class ReadmeTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final int LINES_MAX = 150;
    /** A figure: three digits or more (1,234 counts), or a decimal. Smaller whole numbers are settings (64 connections). */
    private static final Pattern FIGURE = Pattern.compile("(?<![\\w.,])(\\d{1,3}(?:,\\d{3})+|\\d{3,}|\\d+\\.\\d+)(?![\\w,]*\\d)");

    @Test
    void theReadmeIsAtMost150Lines() throws IOException {
        assertThat(Files.readAllLines(ROOT.resolve("README.md"))).hasSizeLessThanOrEqualTo(LINES_MAX);
    }

    /**
     * Every figure of the README's "What was measured" paragraph is in a table row of
     * BENCHMARKS.md: the current results are tables; a superseded run is only told of in prose.
     */
    @Test
    void everyFigureTheReadmeQuotesIsInABenchmarksTable() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int start = readme.indexOf("What was measured");
        assertThat(start).as("the README's paragraph of measurements").isNotNegative();
        int end = readme.indexOf("\n\n", start);
        String measured = readme.substring(start, end < 0 ? readme.length() : end);
        List<String> figures = figures(measured);
        assertThat(figures).as("figures quoted").hasSizeGreaterThanOrEqualTo(5);

        StringBuilder tables = new StringBuilder();
        for (String line : Files.readAllLines(ROOT.resolve("BENCHMARKS.md"))) {
            if (line.startsWith("|")) {
                tables.append(line).append('\n');
            }
        }
        List<String> tableFigures = figures(tables.toString());
        assertThat(tableFigures).as("figures in BENCHMARKS.md's tables").containsAll(figures);
    }

    private static List<String> figures(String text) {
        List<String> figures = new ArrayList<>();
        Matcher matcher = FIGURE.matcher(text.replace("**", ""));
        while (matcher.find()) {
            figures.add(matcher.group(1));
        }
        return figures;
    }
}
