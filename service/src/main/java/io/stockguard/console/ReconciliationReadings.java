package io.stockguard.console;

import io.stockguard.alerting.AlertFeed;
import io.stockguard.reconciliation.Reading;
import io.stockguard.reconciliation.ReadingKind;
import io.stockguard.reconciliation.Readings;
import io.stockguard.stock.SkuId;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The reconciliation probe's readings as the console shows them. A reading that could not compare
 * (not loaded, unreachable, being rebuilt) is shown as no number rather than as a zero.
 */
@Component
@ConditionalOnProperty(name = "stockguard.reconciliation.enabled", havingValue = "true", matchIfMissing = true)
class ReconciliationReadings implements ProbeReadings {

    /** The alert feed's own limit. */
    private static final int ALERTS_MAX = 500;

    private final Readings readings;
    private final AlertFeed alerts;

    ReconciliationReadings(Readings readings, AlertFeed alerts) {
        this.readings = readings;
        this.alerts = alerts;
    }

    @Override
    public Optional<Drift> drift(SkuId skuId) {
        return readings.newest(skuId, 1).stream().filter(ReconciliationReadings::measured).findFirst()
                .map(ReconciliationReadings::drift);
    }

    @Override
    public List<Drift> driftHistory(SkuId skuId, int limit) {
        return readings.newest(skuId, limit).reversed().stream().filter(ReconciliationReadings::measured)
                .map(ReconciliationReadings::drift).toList();
    }

    @Override
    public List<Alert> recentAlerts(int limit) {
        return alerts.recent(Math.min(limit, ALERTS_MAX)).stream().map(a -> new Alert(a.at(), a.level().name(),
                a.skuId(), a.title() + (a.suppressedCount() > 0 ? " (and " + a.suppressedCount() + " repeats)" : "")))
                .toList();
    }

    private static boolean measured(Reading reading) {
        return reading.kind() == ReadingKind.IN_STEP || reading.kind().wrong();
    }

    private static Drift drift(Reading reading) {
        return new Drift(reading.percent(), reading.units(), reading.kind() == ReadingKind.REGRESSION ? "REGRESSION"
                : reading.level().name(), reading.measuredAt());
    }
}
