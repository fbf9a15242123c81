package io.stockguard.client;

import java.time.Duration;
import java.util.Optional;

/**
 * No definite answer within the retry policy: the service stayed unavailable, its outcome stayed
 * unknown, the connection kept failing, or the deadline passed.
 *
 * <p>Never retry it under a new order id: an attempt may hold stock, and a second id would hold it
 * twice. Either try the same call again later under the same order id (it returns the real
 * outcome), or give the order up by cancelling the same order id, which returns whatever an
 * attempt held and makes a late reservation fail with ORDER_CANCELLED.
 *
 * @param reason what the last attempt met, for logs
 * @param attempts how many requests were sent (or tried to be)
 * @param mayHaveApplied false only when the change was certainly not applied: every attempt was
 *     answered UNAVAILABLE or never reached the service
 * @param lastProblem the last problem the service answered, if any
 * @param retryAfter the wait the service last asked for, if any
 */
public record Unresolved(String reason, int attempts, boolean mayHaveApplied, Optional<Problem> lastProblem,
        Optional<Duration> retryAfter) implements Failure {
}
