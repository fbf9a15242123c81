package io.stockguard.reconciliation;

/** How the probe answers a drift: nothing, warn (notify, probe faster), throttle, freeze. */
public enum DriftLevel {
    NONE, WARN, THROTTLE, FREEZE;

    public boolean atLeast(DriftLevel other) {
        return compareTo(other) >= 0;
    }
}
