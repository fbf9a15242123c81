package io.stockguard.console;

import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The reconciliation probe as the console shows it: drift per SKU and the alert feed, through a
 * bean implementing this interface (an adapter in this module over the probe's own API). Where none
 * exists ({@code stockguard.reconciliation.enabled=false}) the console says "probe not running" and shows no number: a
 * made-up zero would read as "no drift" at 2 a.m.
 */
public interface ProbeReadings {

    /** The SKU's last measured drift, or empty when the probe has not measured it. */
    Optional<Drift> drift(SkuId skuId);

    /**
     * The SKU's drift readings over time, oldest first, at most {@code limit} of them (for the
     * drift-over-time chart); empty when the probe has not measured it.
     */
    List<Drift> driftHistory(SkuId skuId, int limit);

    /** The newest alerts, newest first. */
    List<Alert> recentAlerts(int limit);

    /**
     * @param percent drift as a percentage of the SKU's total
     * @param units the exact drift in units (hot store minus database, net of changes in flight)
     * @param level the response level it reached: NONE, WARN, THROTTLE or FREEZE
     */
    record Drift(double percent, long units, String level, Instant measuredAt) {
    }

    record Alert(Instant at, String level, String skuId, String message) {
    }
}
