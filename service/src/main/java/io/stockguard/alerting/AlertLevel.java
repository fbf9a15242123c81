package io.stockguard.alerting;

/**
 * How urgent an alert is, lowest first; the levels match the reconciliation probe's responses
 * (DESIGN §4). Channels take the levels configured for them: by default chat takes WARN and up,
 * SMS THROTTLE and up, phone FREEZE only; INFO reaches a channel only when it asks for INFO.
 */
public enum AlertLevel {
    /** Worth knowing, nothing to do: a SKU frozen by a person, the journal caught up again. */
    INFO,
    /** Look at it soon: small drift, the probe checks more often. */
    WARN,
    /** Selling is limited to protect stock: drift of 1–3%, journal backlog, a dead letter. */
    THROTTLE,
    /** Selling is stopped: drift over 3%, hot-store regression. */
    FREEZE;

    public boolean atLeast(AlertLevel other) {
        return compareTo(other) >= 0;
    }
}
