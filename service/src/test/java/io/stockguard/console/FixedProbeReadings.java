package io.stockguard.console;

import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A stand-in for the reconciliation probe with fixed readings, so that
 * the console's drawing of them is what is tested. Deliberately not a component: it is added only
 * to the services that name it ({@code RunningService.start(…, FixedProbeReadings.class)}).
 */
public class FixedProbeReadings implements ProbeReadings {

    public static final String DRIFTING = "DRIFTING-01";
    public static final String UNMEASURED = "UNMEASURED-02";
    /** Twelve readings ten minutes apart, rising through the warn and throttle thresholds. */
    public static final List<Drift> READINGS = readings();

    private static final Map<String, List<Drift>> HISTORY = Map.of(DRIFTING, READINGS);

    private static List<Drift> readings() {
        Instant start = Instant.parse("2026-11-11T01:00:00Z");
        double[] percents = {0.05, 0.1, 0.08, 0.2, 0.35, 0.3, 0.55, 0.7, 0.9, 1.1, 1.35, 1.2};
        List<Drift> readings = new ArrayList<>();
        for (int i = 0; i < percents.length; i++) {
            double percent = percents[i];
            String level = percent >= 3 ? "FREEZE" : percent >= 1 ? "THROTTLE" : percent >= 0.5 ? "WARN" : "NONE";
            readings.add(new Drift(percent, Math.round(percent * 80), level, start.plusSeconds(600L * i)));
        }
        return List.copyOf(readings);
    }

    @Override
    public Optional<Drift> drift(SkuId skuId) {
        List<Drift> history = HISTORY.getOrDefault(skuId.value(), List.of());
        return history.isEmpty() ? Optional.empty() : Optional.of(history.getLast());
    }

    @Override
    public List<Drift> driftHistory(SkuId skuId, int limit) {
        List<Drift> history = HISTORY.getOrDefault(skuId.value(), List.of());
        return history.subList(Math.max(0, history.size() - limit), history.size());
    }

    @Override
    public List<Alert> recentAlerts(int limit) {
        Drift last = READINGS.getLast();
        return List.of(new Alert(last.measuredAt(), last.level(), DRIFTING, "drift 1.20 % (96 units): throttled"));
    }
}
