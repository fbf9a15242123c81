package io.stockguard.console.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import io.stockguard.console.ConsoleProperties;
import io.stockguard.console.ProbeReadings;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class DriftPlotTest {

    private static final ConsoleProperties.DriftChart SETTINGS = new ConsoleProperties.DriftChart(200, 24, 0.5, 1, 3);
    private static final Instant T0 = Instant.parse("2026-11-11T02:00:00Z");

    @Test
    void drawsOnePointPerReadingInTimeOrderWithLargerDriftHigher() {
        DriftPlot plot = DriftPlot.of(List.of(reading(0, 0.1), reading(60, 1.2), reading(180, -0.4)), SETTINGS);

        List<double[]> points = points(plot.points());
        assertThat(points).hasSize(3);
        assertThat(points.get(0)[0]).isEqualTo(DriftPlot.PLOT_LEFT);
        assertThat(points.get(2)[0]).isEqualTo(DriftPlot.PLOT_RIGHT);
        assertThat(points.get(1)[0]).as("spaced by time, not by index").isCloseTo(
                DriftPlot.PLOT_LEFT + (DriftPlot.PLOT_RIGHT - DriftPlot.PLOT_LEFT) / 3.0, offset(0.1));
        assertThat(points.get(1)[1]).as("1.2 % above 0.1 %").isLessThan(points.get(0)[1]);
        assertThat(points.get(2)[1]).as("a negative drift drawn by its size").isLessThan(points.get(0)[1]);
        assertThat(plot.marks()).extracting(DriftPlot.Mark::level).containsExactly("NONE", "THROTTLE", "NONE");
    }

    @Test
    void drawsTheThresholdsInRisingOrderInsideThePlot() {
        DriftPlot plot = DriftPlot.of(List.of(reading(0, 0.2)), SETTINGS);

        assertThat(plot.thresholds()).extracting(DriftPlot.Threshold::level)
                .containsExactly("WARN", "THROTTLE", "FREEZE");
        List<Double> ys = plot.thresholds().stream().map(t -> Double.parseDouble(t.y())).toList();
        assertThat(ys).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        assertThat(ys).allSatisfy(y -> assertThat(y).isBetween((double) DriftPlot.PLOT_TOP,
                (double) DriftPlot.PLOT_BOTTOM));
        assertThat(plot.thresholds().getFirst().label()).isEqualTo("warn 0.5 %");
        assertThat(points(plot.points())).as("a single reading still has its point").hasSize(1);
    }

    @Test
    void aReadingAboveTheFreezeThresholdStaysInsideThePlot() {
        DriftPlot plot = DriftPlot.of(List.of(reading(0, 0.2), reading(30, 12.5)), SETTINGS);

        assertThat(points(plot.points()).get(1)[1]).isGreaterThanOrEqualTo(DriftPlot.PLOT_TOP);
        assertThat(plot.summary()).contains("latest 12.50 %", "freeze at 3.00 %");
    }

    @Test
    void refusesToDrawNothing() {
        assertThatThrownBy(() -> DriftPlot.of(List.of(), SETTINGS)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sparklineHasOnePointPerReadingInsideItsBox() {
        List<double[]> points = points(DriftPlot.sparkline(List.of(reading(0, 0.1), reading(10, 0.9), reading(20, 0)),
                SETTINGS));

        assertThat(points).hasSize(3);
        assertThat(points).allSatisfy(p -> {
            assertThat(p[0]).isBetween(0.0, 100.0);
            assertThat(p[1]).isBetween(0.0, 24.0);
        });
        assertThat(points.get(1)[1]).isLessThan(points.get(0)[1]);
    }

    private static ProbeReadings.Drift reading(long seconds, double percent) {
        String level = Math.abs(percent) >= 3 ? "FREEZE" : Math.abs(percent) >= 1 ? "THROTTLE"
                : Math.abs(percent) >= 0.5 ? "WARN" : "NONE";
        return new ProbeReadings.Drift(percent, Math.round(percent * 10), level, T0.plusSeconds(seconds));
    }

    private static List<double[]> points(String points) {
        return Arrays.stream(points.split(" ")).map(p -> Arrays.stream(p.split(",")).mapToDouble(Double::parseDouble)
                .toArray()).toList();
    }
}
