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
 */
@ConfigurationProperties("stockguard.console")
public record ConsoleProperties(@DefaultValue("100") int overviewSkusMax, @DefaultValue("50") int journalTailSize,
        @DefaultValue("500") int traceEventsMax, @DefaultValue("100") int auditPageSize) {

    public ConsoleProperties {
        List<String> problems = new ArrayList<>();
        check("overview-skus-max", overviewSkusMax, 1000, problems);
        check("journal-tail-size", journalTailSize, 500, problems);
        check("trace-events-max", traceEventsMax, 5000, problems);
        check("audit-page-size", auditPageSize, 500, problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    private static void check(String property, int value, int max, List<String> problems) {
        if (value < 1 || value > max) {
            problems.add("stockguard.console." + property + " must be between 1 and " + max + ", was " + value);
        }
    }
}
