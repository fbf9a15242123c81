package io.stockguard.reservation;

import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.ProblemCode;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * An operation that changed nothing, and why. Each refusal names its stable problem code; the web
 * edge maps that code to HTTP once, for every operation.
 */
public sealed interface Refusal extends ReservationOutcome, OrderOutcome, StockChangeOutcome {

    ProblemCode code();

    String detail();

    /** Extra fields for the problem body (the SKU, the quantity that was available, …). */
    default Map<String, Object> properties() {
        return Map.of();
    }

    /**
     * The refusal an order that has moved on to {@code state} gives an operation that needs it still
     * held: the one mapping of an order's state to a refusal, for every store.
     *
     * @throws IllegalArgumentException for RESERVED: a held order is refused for other reasons, or not at all
     */
    static Refusal movedOn(OrderId order, ReservationState state) {
        return switch (state) {
            case CONFIRMED -> new OrderConfirmed(order);
            case CANCELLED -> new OrderCancelled(order);
            case EXPIRED -> new OrderExpired(order);
            case RESERVED -> throw new IllegalArgumentException("order " + order + " is held: its state refuses "
                    + "nothing");
        };
    }

    record InsufficientStock(SkuId skuId, long requested, long available) implements Refusal {
        public ProblemCode code() {
            return ProblemCode.INSUFFICIENT_STOCK;
        }

        public String detail() {
            return "SKU " + skuId + " has " + available + " available, " + requested + " requested";
        }

        public Map<String, Object> properties() {
            return Map.of("skuId", skuId.value(), "requested", requested, "available", available);
        }
    }

    /**
     * The customer would hold more of the SKU than its per-customer limit allows.
     *
     * @param held the units of the SKU the customer holds or bought (reserved and confirmed
     *     orders), before this one
     */
    record LimitExceeded(SkuId skuId, CustomerId customerId, long requested, long limit, long held)
            implements Refusal {
        public ProblemCode code() {
            return ProblemCode.LIMIT_EXCEEDED;
        }

        public String detail() {
            return "SKU " + skuId + " sells at most " + limit + " per customer; customer " + customerId + " holds "
                    + held + " and asked for " + requested;
        }

        public Map<String, Object> properties() {
            return Map.of("skuId", skuId.value(), "customerId", customerId.value(), "requested", requested,
                    "limit", limit, "held", held);
        }
    }

    record SkuFrozen(SkuId skuId) implements Refusal {
        public ProblemCode code() {
            return ProblemCode.SKU_FROZEN;
        }

        public String detail() {
            return "SKU " + skuId + " is frozen: it is temporarily not sold";
        }

        public Map<String, Object> properties() {
            return Map.of("skuId", skuId.value());
        }
    }

    record Throttled(SkuId skuId, Duration retryAfter) implements Refusal {
        public ProblemCode code() {
            return ProblemCode.THROTTLED;
        }

        public String detail() {
            return "SKU " + skuId + " is throttled; retry after " + retrySeconds() + " s";
        }

        public Map<String, Object> properties() {
            return Map.of("skuId", skuId.value(), "retryAfterSeconds", retrySeconds());
        }

        /** The seconds the Retry-After header will say. */
        private long retrySeconds() {
            return ApiProblemException.retryAfterSeconds(retryAfter);
        }
    }

    record UnknownSku(SkuId skuId) implements Refusal {
        public ProblemCode code() {
            return ProblemCode.UNKNOWN_SKU;
        }

        public String detail() {
            return "SKU " + skuId + " does not exist";
        }

        public Map<String, Object> properties() {
            return Map.of("skuId", skuId.value());
        }
    }

    record UnknownOrder(OrderId orderId) implements Refusal {
        public ProblemCode code() {
            return ProblemCode.UNKNOWN_ORDER;
        }

        public String detail() {
            return "order " + orderId + " has no reservation";
        }
    }

    /** The same idempotency key was used before for a different request. */
    record IdempotencyConflict(String key) implements Refusal {
        public ProblemCode code() {
            return ProblemCode.IDEMPOTENCY_CONFLICT;
        }

        public String detail() {
            return key + " was already used with different contents; use a new id for a different request";
        }
    }

    record OrderCancelled(OrderId orderId) implements Refusal {
        public ProblemCode code() {
            return ProblemCode.ORDER_CANCELLED;
        }

        public String detail() {
            return "order " + orderId + " is cancelled";
        }
    }

    record OrderExpired(OrderId orderId) implements Refusal {
        public ProblemCode code() {
            return ProblemCode.ORDER_EXPIRED;
        }

        public String detail() {
            return "the reservation of order " + orderId + " expired and its stock was returned";
        }
    }

    record OrderConfirmed(OrderId orderId) implements Refusal {
        public ProblemCode code() {
            return ProblemCode.ORDER_CONFIRMED;
        }

        public String detail() {
            return "order " + orderId + " is confirmed: nothing of it is held any more";
        }
    }

    /**
     * The order's hold cannot be extended (again).
     *
     * @param holdEnds when the hold ends now
     * @param extensions how many times it was extended
     * @param switchedOff extensions are switched off here, for every order
     */
    record ExtensionLimit(OrderId orderId, Instant holdEnds, int extensions, boolean switchedOff) implements Refusal {
        public ProblemCode code() {
            return ProblemCode.EXTENSION_LIMIT;
        }

        public String detail() {
            return switchedOff ? "holds are not extended here (stockguard.reservation.extension.enabled is false)"
                    : "the hold of order " + orderId + " was extended before; it ends at " + holdEnds;
        }

        public Map<String, Object> properties() {
            return Map.of("orderId", orderId.value(), "expiresAt", holdEnds.toString(), "extensions", extensions);
        }
    }

    /**
     * The store could not be reached or failed. When {@code outcomeUnknown} is false the change was
     * certainly not applied; when true it failed while committing and may have been. In both cases
     * a retry with the same id is safe and returns the real outcome.
     */
    record Unavailable(boolean outcomeUnknown, String reason) implements Refusal {
        public ProblemCode code() {
            return outcomeUnknown ? ProblemCode.OUTCOME_UNKNOWN : ProblemCode.UNAVAILABLE;
        }

        public String detail() {
            return outcomeUnknown
                    ? "the outcome is not known (" + reason + "); retry with the same id to learn it"
                    : "the change was not applied (" + reason + "); retrying with the same id is safe";
        }
    }
}
