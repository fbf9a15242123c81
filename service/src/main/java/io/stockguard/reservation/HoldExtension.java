package io.stockguard.reservation;

import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.StockLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * A request to hold an order's stock longer: its hold is to last {@code hold} in all, counted from
 * when the reservation was made (as the TTL of the reservation is). Counting from the reservation
 * rather than from the request makes the request idempotent: a retry asks for the same end, which
 * the order already has.
 */
public record HoldExtension(OrderId orderId, Duration hold, Caller caller) {

    /** An order's hold is extended at most this often; the journal keeps one EXTEND per order line. */
    public static final int PER_ORDER_MAX = 1;

    public HoldExtension {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(caller, "caller");
        if (hold == null) {
            throw new InvalidRequestException("ttlSeconds", "is required: the whole hold in seconds, counted from "
                    + "when the reservation was made");
        }
        if (hold.compareTo(StockLimits.TTL_MIN) < 0 || hold.compareTo(StockLimits.TTL_MAX) > 0) {
            throw new InvalidRequestException("ttlSeconds",
                    "must be between " + StockLimits.TTL_MIN.toSeconds() + " and " + StockLimits.TTL_MAX.toSeconds());
        }
    }
}
