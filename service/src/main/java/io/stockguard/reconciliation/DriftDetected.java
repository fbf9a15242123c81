package io.stockguard.reconciliation;

/**
 * The probe found a SKU drifting, regressed or with a broken ledger, at WARN or above; published on
 * every such reading (alerting dedupes), with the mode the SKU was left in.
 */
public record DriftDetected(Reading reading, String modeAfter) {
}
