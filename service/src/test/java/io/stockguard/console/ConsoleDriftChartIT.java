package io.stockguard.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Browser;
import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.RunningService;
import io.stockguard.testkit.TestDatabase;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The drift-over-time chart and the overview's sparklines, drawn by the server as SVG from the
 * readings of a probe with fixed data (the console is under test here, not the probe), in a real
 * Chromium. Screenshots land in {@code target/screenshots}.
 */
class ConsoleDriftChartIT {

    private static RunningService service;
    private Browser browser;

    @BeforeAll
    static void startWithAProbe() {
        service = RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), ConsolePeople.settings(),
                FixedProbeReadings.class);
        assertThat(service.admin().putSku(FixedProbeReadings.DRIFTING, 8000).status()).isEqualTo(201);
        assertThat(service.admin().putSku(FixedProbeReadings.UNMEASURED, 500).status()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    @BeforeEach
    void openBrowser() {
        browser = new Browser(service.baseUrl());
        browser.logIn(ConsolePeople.VIEWER);
    }

    @AfterEach
    void closeBrowser() {
        browser.close();
    }

    @Test
    void skuPageDrawsOnePointPerReadingWithTheThresholdLinesAndATable() {
        browser.open("/console/skus/" + FixedProbeReadings.DRIFTING);

        WebElement chart = browser.find("[data-slot=drift-chart] svg.drift-chart");
        assertThat(chart.getDomAttribute("role")).isEqualTo("img");
        assertThat(browser.find("#drift-svg-title").getDomProperty("textContent"))
                .isEqualTo("Drift of " + FixedProbeReadings.DRIFTING + " over time");
        assertThat(browser.find("#drift-svg-desc").getDomProperty("textContent")).contains("12 reading(s)",
                "latest 1.20 %", "warn at 0.50 %", "throttle at 1.00 %", "freeze at 3.00 %");
        String points = chart.findElement(By.cssSelector("polyline.drift-line")).getDomAttribute("points");
        assertThat(points.strip().split("\\s+")).hasSize(FixedProbeReadings.READINGS.size());
        assertThat(chart.findElements(By.cssSelector("circle.dot"))).hasSize(FixedProbeReadings.READINGS.size());
        double warn = y(chart, "WARN");
        double throttle = y(chart, "THROTTLE");
        double freeze = y(chart, "FREEZE");
        assertThat(warn).as("SVG y grows downwards: warn lowest").isGreaterThan(throttle);
        assertThat(throttle).isGreaterThan(freeze);
        assertThat(chart.findElements(By.cssSelector("line.threshold[stroke-dasharray]"))).hasSize(3);

        List<WebElement> rows = browser.findAll("details table.readings tbody tr");
        assertThat(rows).hasSize(FixedProbeReadings.READINGS.size());
        assertThat(rows.getLast().getDomProperty("textContent")).contains("1.20", "96", "THROTTLE");
        assertThat(chart.getSize().getHeight()).as("drawn, not collapsed").isGreaterThan(100);
        browser.assertUsable("SKU page with a drift chart");
        browser.script("arguments[0].scrollIntoView()", browser.find("[data-slot=drift-chart]"));
        browser.screenshot("sku-drift-chart-" + Browser.DESKTOP.width);

        browser.size(Browser.PHONE);
        browser.open("/console/skus/" + FixedProbeReadings.DRIFTING);
        browser.assertUsable("SKU page with a drift chart on a phone");
        assertThat(browser.find("svg.drift-chart").getSize().getWidth()).isLessThanOrEqualTo(Browser.PHONE.width);
        browser.find("details summary").click();
        browser.script("arguments[0].scrollIntoView()", browser.find("[data-slot=drift-chart]"));
        browser.screenshot("sku-drift-chart-" + Browser.PHONE.width);
    }

    @Test
    void skuPageWithoutReadingsSaysSoAndDrawsNoChart() {
        browser.open("/console/skus/" + FixedProbeReadings.UNMEASURED);

        assertThat(browser.find("[data-slot=drift-chart]").getText()).contains("No readings yet")
                .doesNotContain("Probe not running");
        assertThat(browser.findAll("svg.drift-chart")).isEmpty();
        browser.screenshot("sku-drift-unmeasured");
    }

    @Test
    void overviewRowsOfMeasuredSkusCarryASparkline() {
        browser.open("/console");

        WebElement sparkline = browser.find("tr[data-sku='" + FixedProbeReadings.DRIFTING + "'] svg.sparkline");
        assertThat(sparkline.getDomAttribute("aria-label")).contains(FixedProbeReadings.DRIFTING, "12 readings");
        assertThat(sparkline.findElement(By.tagName("polyline")).getDomAttribute("points").strip().split("\\s+"))
                .hasSize(FixedProbeReadings.READINGS.size());
        assertThat(browser.findAll("tr[data-sku='" + FixedProbeReadings.UNMEASURED + "'] svg.sparkline")).isEmpty();
        assertThat(browser.find("[data-slot=alert-feed]").getText()).contains(FixedProbeReadings.DRIFTING);
        browser.assertUsable("overview with sparklines");
        browser.screenshot("overview-sparklines");
    }

    private static double y(WebElement chart, String level) {
        return Double.parseDouble(chart.findElement(By.cssSelector("line[data-threshold=" + level + "]"))
                .getDomAttribute("y1"));
    }
}
