package io.stockguard.reservation.web;

import io.stockguard.platform.ApiProblemException;
import io.stockguard.reservation.Refusal;
import java.time.Duration;

/** The one mapping of refusals to HTTP: each refusal's problem code decides the status. */
final class Refusals {

    /** Store outages clear quickly or trip a fallback; one second keeps retries from piling up. */
    private static final Duration RETRY_AFTER_UNAVAILABLE = Duration.ofSeconds(1);

    private Refusals() {
    }

    static ApiProblemException toProblem(Refusal refusal) {
        Duration retryAfter = switch (refusal) {
            case Refusal.Throttled throttled -> throttled.retryAfter();
            case Refusal.Unavailable unavailable -> RETRY_AFTER_UNAVAILABLE;
            default -> null;
        };
        return new ApiProblemException(refusal.code(), refusal.detail(), refusal.properties(), retryAfter);
    }
}
