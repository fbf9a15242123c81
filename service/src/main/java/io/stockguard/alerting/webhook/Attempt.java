package io.stockguard.alerting.webhook;

/** What became of one attempt to hand an alert to a provider. */
public sealed interface Attempt {

    /** The provider accepted the alert. */
    record Sent() implements Attempt {
    }

    /** The provider refused it or did not answer in time; {@code error} holds no URL, secret or header value. */
    record Failed(String error) implements Attempt {
    }
}
