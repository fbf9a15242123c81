package io.stockguard.alerting;

/** Raises alerts. The one call other modules make into this one. */
public interface Alerts {

    /**
     * Hands the alert to the channels routed for its level and returns at once: it never waits on
     * the network or the database, so it is safe on a probe's or a request's thread. A channel
     * whose queue is full drops the alert (counted and recorded as DROPPED); a repeat within the
     * dedupe window is counted on the first one and not sent again.
     */
    void raise(Alert alert);
}
