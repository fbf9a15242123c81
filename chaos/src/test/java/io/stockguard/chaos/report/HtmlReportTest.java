package io.stockguard.chaos.report;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.chaos.check.Checker;
import io.stockguard.chaos.check.Scenarios;
import io.stockguard.chaos.check.Verdict;
import io.stockguard.chaos.history.History;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {

    @Test
    void writesOneSelfContainedPageWithTheChartAndEveryRule(@TempDir Path dir) throws Exception {
        History history = Scenarios.cleanRun().build();
        Path file = HtmlReport.write(dir.resolve("report.html"), history, Scenarios.check(history),
                "full tier, seed 7 <smoke>");
        String html = Files.readString(file);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg", "</svg>", "class=\"fault\"",
                ">kill-redis</text>", "VALID: every rule holds", "full tier, seed 7 &lt;smoke&gt;");
        new Checker().ruleNames().forEach(rule -> assertThat(html).contains("<td>" + rule + "</td>"));
        assertThat(html).doesNotContain("<script", "http://", "https://", "<link");
    }

    @Test
    void showsFailedRuleWithItsCounterExample() {
        History history = history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").unavailable()
                .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:2").settled("SKU-1", 10, 8, 2, 0).build();
        Verdict verdict = Scenarios.check(history);
        String html = HtmlReport.render(history, verdict, "database tier");
        assertThat(html).contains("INVALID", "<td class=\"fail\">FAIL</td>",
                "not-applied-means-not-applied: first counter-example", "-&gt; 503 UNAVAILABLE", "<p>none</p>");
    }

    @Test
    void aSectionAddedLaterComesInsideThePage(@TempDir Path folder) throws Exception {
        History history = history().sku("SKU-1", 10).at(60_000).settled("SKU-1", 10, 10, 0, 0).build();
        Path report = HtmlReport.write(folder.resolve("report.html"), history, Scenarios.check(history), "t");

        HtmlReport.append(report, "<h2>The demo</h2>");

        String html = Files.readString(report);
        assertThat(html).endsWith("<h2>The demo</h2></body></html>\n");
        assertThat(html.indexOf("<h2>The demo</h2>")).isGreaterThan(html.indexOf("Answers per second"));
    }
}
