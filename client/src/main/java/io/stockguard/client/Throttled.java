package io.stockguard.client;

import java.time.Duration;

/**
 * 429 THROTTLED: the SKU sells under a rate limit (or the service's journal is catching up).
 * Nothing was held. It is not retried by the client, so the caller decides whether the order can
 * wait: to go on, send the same call again under the same order id after {@link #retryAfter()}.
 */
public record Throttled(Problem problem, Duration retryAfter) implements Failure {
}
