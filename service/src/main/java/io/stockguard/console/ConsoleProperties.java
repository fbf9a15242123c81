package io.stockguard.console;

import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What the console reads per page ({@code stockguard.console.*}); each bounds the work one page
 * view may cost the database and the hot store.
 *
 * @param overviewSkusMax SKUs listed on the overview, frozen and throttled first, then by reserved
 *     plus sold (1 to 1000); with the Redis tier each costs one hot-store read
 * @param journalTailSize journal rows shown on a SKU page (1 to 500)
 * @param traceEventsMax journal rows shown in an order trace (1 to 5000)
 * @param auditPageSize audit rows per page (1 to 500)
 * @param drift the drift chart's bounds and threshold lines
 * @param deadLettersShown dead letters listed on the dead-letters page, newest first (1 to 1000)
 */
@ConfigurationProperties("stockguard.console")
public record ConsoleProperties(@DefaultValue("100") int overviewSkusMax, @DefaultValue("50") int journalTailSize,
        @DefaultValue("500") int traceEventsMax, @DefaultValue("100") int auditPageSize,
        @DefaultValue DriftChart drift, @DefaultValue("100") int deadLettersShown) {

    public ConsoleProperties {
        List<String> problems = new ArrayList<>();
        check("overview-skus-max", overviewSkusMax, 1000, problems);
        check("journal-tail-size", journalTailSize, 500, problems);
        check("trace-events-max", traceEventsMax, 5000, problems);
        check("audit-page-size", auditPageSize, 500, problems);
        check("dead-letters-shown", deadLettersShown, 1000, problems);
        if (drift == null) {
            drift = DriftChart.DEFAULTS;
        }
        check("drift.history-size", drift.historySize(), 2000, problems);
        check("drift.sparkline-size", drift.sparklineSize(), 200, problems);
        if (!(drift.warnPercent() > 0 && drift.warnPercent() < drift.throttlePercent()
                && drift.throttlePercent() < drift.freezePercent() && drift.freezePercent() <= 100)) {
            problems.add("stockguard.console.drift thresholds must rise within (0, 100]: warn-percent < "
                    + "throttle-percent < freeze-percent, were " + drift.warnPercent() + ", " + drift.throttlePercent()
                    + ", " + drift.freezePercent());
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    /**
     * The drift-over-time chart ({@code stockguard.console.drift.*}). The thresholds only draw the
     * chart's dashed lines; the probe decides the levels, so keep them equal to the probe's.
     *
     * @param historySize readings drawn on a SKU page's chart, the newest (1 to 2000)
     * @param sparklineSize readings drawn in an overview row's sparkline, the newest (1 to 200);
     *     each row costs the probe one read
     * @param warnPercent drift at which the probe warns
     * @param throttlePercent drift at which the probe throttles the SKU
     * @param freezePercent drift at which the probe freezes the SKU
     */
    public record DriftChart(@DefaultValue("200") int historySize, @DefaultValue("24") int sparklineSize,
            @DefaultValue("0.5") double warnPercent, @DefaultValue("1") double throttlePercent,
            @DefaultValue("3") double freezePercent) {

        static final DriftChart DEFAULTS = new DriftChart(200, 24, 0.5, 1, 3);
    }

    private static void check(String property, int value, int max, List<String> problems) {
        if (value < 1 || value > max) {
            problems.add("stockguard.console." + property + " must be between 1 and " + max + ", was " + value);
        }
    }
}
