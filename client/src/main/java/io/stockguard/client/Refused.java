package io.stockguard.client;

/**
 * A definite refusal (a 4xx answer other than 429): nothing changed, and sending the same request
 * again would be refused again, so it is never retried. Switch on {@link #code()}, never on the
 * detail: {@code INSUFFICIENT_STOCK}, {@code SKU_FROZEN}, {@code UNKNOWN_SKU}, {@code UNKNOWN_ORDER},
 * {@code IDEMPOTENCY_CONFLICT}, {@code ORDER_CANCELLED}, {@code ORDER_EXPIRED}, {@code INVALID_REQUEST},
 * {@code UNAUTHENTICATED}, {@code FORBIDDEN} and the others of docs/api.md.
 */
public record Refused(Problem problem) implements Failure {

    public String code() {
        return problem.code();
    }

    public String detail() {
        return problem.detail();
    }
}
