package io.stockguard.platform;

import org.springframework.http.HttpStatus;

/**
 * The stable error codes of the API. Clients switch on {@code code}, never on the title or detail,
 * so a code is never renamed once published.
 */
public enum ProblemCode {
    INSUFFICIENT_STOCK(HttpStatus.CONFLICT, "Insufficient stock"),
    SKU_FROZEN(HttpStatus.LOCKED, "SKU frozen"),
    THROTTLED(HttpStatus.TOO_MANY_REQUESTS, "Throttled"),
    UNKNOWN_SKU(HttpStatus.NOT_FOUND, "Unknown SKU"),
    UNKNOWN_ORDER(HttpStatus.NOT_FOUND, "Unknown order"),
    IDEMPOTENCY_CONFLICT(HttpStatus.CONFLICT, "Idempotency conflict"),
    ORDER_CANCELLED(HttpStatus.CONFLICT, "Order cancelled"),
    ORDER_EXPIRED(HttpStatus.CONFLICT, "Order expired"),
    INVALID_REQUEST(HttpStatus.BAD_REQUEST, "Invalid request"),
    UNAUTHENTICATED(HttpStatus.UNAUTHORIZED, "Authentication required"),
    FORBIDDEN(HttpStatus.FORBIDDEN, "Forbidden"),
    NOT_FOUND(HttpStatus.NOT_FOUND, "Not found"),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed"),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "Not acceptable"),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type"),
    PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "Payload too large"),
    /** The change was certainly not applied; retrying with the same order id is safe. */
    UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "Temporarily unavailable"),
    /**
     * The store failed while committing, so the change may or may not have been applied. Retrying
     * with the same order id is safe and returns the real outcome.
     */
    OUTCOME_UNKNOWN(HttpStatus.SERVICE_UNAVAILABLE, "Outcome unknown"),
    INTERNAL(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error");

    private final HttpStatus status;
    private final String title;

    ProblemCode(HttpStatus status, String title) {
        this.status = status;
        this.title = title;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }
}
