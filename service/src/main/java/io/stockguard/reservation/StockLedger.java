package io.stockguard.reservation;

import io.stockguard.platform.Caller;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where stock is held and moved atomically: the database itself in the embedded tier, Redis in
 * the standard and full tiers. Implementations never oversell (I1), are idempotent by order id
 * (I3), journal every change before they return it (I2), and report refusals as values.
 * A store failure is thrown as a {@code DataAccessException}; {@link Reservations} turns it into
 * a refusal whose code says whether the change may have been applied.
 */
public interface StockLedger {

    /** Holds (or with {@code commit}, sells) every line of the order, or none of them. */
    ReservationOutcome reserve(ReserveCommand command);

    /** Turns a held reservation into a sale. */
    OrderOutcome confirm(OrderId orderId, Caller caller);

    /**
     * Returns the order's stock, held or sold. Cancelling an order never seen leaves a tombstone
     * so a reserve that arrives later is refused (I7).
     */
    OrderOutcome cancel(OrderId orderId, Caller caller);

    /**
     * Makes a held order's hold last {@code extension.hold()} from when it was made, if that is
     * longer and the order was not extended before ({@link HoldExtension#PER_ORDER_MAX}). Moves no
     * stock; journals one EXTEND per line. A hold that lasts that long already is a replay.
     */
    OrderOutcome extend(HoldExtension extension);

    /** Returns the stock of a reservation whose TTL has passed; false when there was nothing to do. */
    boolean expire(OrderId orderId, Instant now);

    /**
     * Reservations past their TTL, oldest first, after {@code after} (null: from the first): a
     * sweeper pages through them, so reservations it cannot expire now do not hold back the rest.
     */
    List<Due> dueForExpiry(Instant now, Due after, int limit);

    /** A reservation due for expiry, and its place in the order the sweeper pages in. */
    record Due(Instant expiresAt, OrderId orderId) {
    }

    StockChangeOutcome apply(StockCommand command);

    Optional<SkuStockView> stock(SkuId skuId);

    Optional<ReservationView> reservation(OrderId orderId);

    /** The name of this ledger's path, for metrics and logs ({@code database}, {@code redis}). */
    String path();
}
