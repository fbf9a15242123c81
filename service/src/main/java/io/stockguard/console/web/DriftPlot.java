package io.stockguard.console.web;

import io.stockguard.console.ConsoleProperties;
import io.stockguard.console.ProbeReadings;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A SKU's drift over time as inline SVG, laid out here so that the template only places it: a line
 * through each reading's drift against the time it was measured, and dashed lines at the warn,
 * throttle and freeze thresholds. Drawn on the server: no script, no library, no CDN. The line
 * shows the drift's size (a level is reached whichever store is ahead); the table beside it shows
 * the sign.
 *
 * @param points the polyline's points, one per reading, oldest first
 * @param summary what the chart shows, in words, for its title and screen readers
 */
record DriftPlot(String points, List<Mark> marks, List<Threshold> thresholds, String firstAt, String lastAt,
        String summary) {

    /** The SVG's viewBox; CSS scales it to the width of the page. */
    static final int WIDTH = 480;
    static final int HEIGHT = 180;
    static final int PLOT_LEFT = 36;
    static final int PLOT_RIGHT = 380;
    static final int PLOT_TOP = 8;
    static final int PLOT_BOTTOM = 156;
    /** Headroom above the highest of the freeze threshold and the largest reading. */
    private static final double HEADROOM = 1.15;
    private static final DateTimeFormatter AXIS_TIME = DateTimeFormatter.ofPattern("MM-dd HH:mm")
            .withZone(ZoneOffset.UTC);
    /** A sparkline's viewBox is 0 0 100 24. */
    private static final double SPARK_WIDTH = 100;
    private static final double SPARK_HEIGHT = 24;

    /** The frame the template draws the marks in: the viewBox, the axes and where labels go. */
    public String viewBox() {
        return "0 0 " + WIDTH + " " + HEIGHT;
    }

    public int left() {
        return PLOT_LEFT;
    }

    public int right() {
        return PLOT_RIGHT;
    }

    public int bottom() {
        return PLOT_BOTTOM;
    }

    public int timeLabelY() {
        return HEIGHT - 6;
    }

    /** A reading's dot, coloured by the level the probe gave it. */
    record Mark(String x, String y, String level) {
    }

    record Threshold(String level, String y, String label) {
    }

    /** The chart of at least one reading, oldest first. */
    static DriftPlot of(List<ProbeReadings.Drift> readings, ConsoleProperties.DriftChart settings) {
        if (readings.isEmpty()) {
            throw new IllegalArgumentException("a drift chart needs at least one reading");
        }
        double top = HEADROOM * Math.max(settings.freezePercent(), readings.stream()
                .mapToDouble(r -> Math.abs(r.percent())).max().orElse(0));
        Instant first = readings.getFirst().measuredAt();
        Instant last = readings.getLast().measuredAt();
        long spanMillis = last.toEpochMilli() - first.toEpochMilli();
        List<String> points = new ArrayList<>(readings.size());
        List<Mark> marks = new ArrayList<>(readings.size());
        for (ProbeReadings.Drift reading : readings) {
            double x = spanMillis <= 0 ? (PLOT_LEFT + PLOT_RIGHT) / 2.0 : PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT)
                    * (double) (reading.measuredAt().toEpochMilli() - first.toEpochMilli()) / spanMillis;
            double y = y(Math.abs(reading.percent()), top);
            points.add(number(x) + "," + number(y));
            marks.add(new Mark(number(x), number(y), reading.level()));
        }
        List<Threshold> thresholds = List.of(
                threshold("WARN", "warn", settings.warnPercent(), top),
                threshold("THROTTLE", "throttle", settings.throttlePercent(), top),
                threshold("FREEZE", "freeze", settings.freezePercent(), top));
        ProbeReadings.Drift latest = readings.getLast();
        String summary = "Drift of the last " + readings.size() + " reading(s), " + ConsoleModel.TIME.format(first)
                + " to " + ConsoleModel.TIME.format(last) + "; latest " + percent(latest.percent()) + " ("
                + latest.units() + " units, " + latest.level() + "). Dashed lines: warn at "
                + percent(settings.warnPercent()) + ", throttle at " + percent(settings.throttlePercent())
                + ", freeze at " + percent(settings.freezePercent()) + ".";
        return new DriftPlot(String.join(" ", points), marks, thresholds, AXIS_TIME.format(first),
                AXIS_TIME.format(last), summary);
    }

    /**
     * A row's sparkline in a 100 × 24 viewBox: the readings' drift sizes, evenly spaced, scaled to
     * the largest of them or the warn threshold, so that noise below it stays flat.
     */
    static String sparkline(List<ProbeReadings.Drift> readings, ConsoleProperties.DriftChart settings) {
        double top = Math.max(settings.warnPercent(), readings.stream()
                .mapToDouble(r -> Math.abs(r.percent())).max().orElse(0));
        List<String> points = new ArrayList<>(readings.size());
        for (int i = 0; i < readings.size(); i++) {
            double x = readings.size() == 1 ? SPARK_WIDTH / 2 : SPARK_WIDTH * i / (readings.size() - 1);
            double y = SPARK_HEIGHT - 1 - (SPARK_HEIGHT - 2) * Math.abs(readings.get(i).percent()) / top;
            points.add(number(x) + "," + number(y));
        }
        return String.join(" ", points);
    }

    static String percent(double value) {
        return String.format(Locale.ROOT, "%.2f %%", value);
    }

    private static Threshold threshold(String level, String name, double percent, double top) {
        // Short labels ("throttle 1 %"): they must fit beside the plot on a phone.
        return new Threshold(level, number(y(percent, top)), name + " "
                + java.math.BigDecimal.valueOf(percent).stripTrailingZeros().toPlainString() + " %");
    }

    private static double y(double percent, double top) {
        return PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * percent / top;
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
