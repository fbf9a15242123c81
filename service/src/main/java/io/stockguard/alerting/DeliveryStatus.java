package io.stockguard.alerting;

/** Where an alert stands with one channel. */
public enum DeliveryStatus {
    /** Queued or being sent. */
    PENDING,
    /** The provider accepted it. */
    SENT,
    /** Every attempt failed or the delivery deadline passed; the error says why. */
    FAILED,
    /** The channel's queue was full: the channel is slower than alerts arrive. */
    DROPPED,
    /** Not sent: the channel's limit per SKU and level was reached. */
    SUPPRESSED
}
