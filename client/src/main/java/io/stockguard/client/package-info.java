/**
 * A Java client of the StockGuard API for order services: reserve, confirm, cancel and read
 * reservations, and read a SKU's stock.
 *
 * <p>Every call returns its outcome as a value. A success is the thing asked for ({@link Reserved},
 * a {@link Reservation}, a {@link Stock}); otherwise it is a {@link Failure}: {@link Refused} for a
 * definite refusal with the service's stable code, {@link Throttled} for a rate limit with its
 * wait, or {@link Unresolved} when no definite answer came within the retry policy. Exceptions are
 * left for programming errors (an invalid order id, a quantity of zero).
 *
 * <p>The retry contract of the API is built in: after {@code 503 UNAVAILABLE},
 * {@code 503 OUTCOME_UNKNOWN} or a lost answer, the same request is sent again under the same order
 * id, after {@code Retry-After} (or an exponential backoff with jitter), within a bounded number of
 * attempts and a total deadline. A definite 4xx is never retried.
 */
package io.stockguard.client;
