package io.stockguard.reservation.redis;

import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.platform.Caller;
import io.stockguard.reservation.OrderOutcome;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.reservation.jdbc.HotStoreSource;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Confirm, cancel and expiry on the hot store. The order record decides the transition (atomic
 * in its slot); each line then moves its stock on its SKU (idempotent per line); the changes are
 * journaled; the order is marked done. A caller that dies half-way leaves the order in its
 * transitional state, and the next attempt resumes it.
 */
final class HotSettlements {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(HotSettlements.class);

    private final HotOrders orders;
    private final HotLines lines;
    private final HotStockLoader loader;
    private final DurableJournal journal;
    private final HotStoreSource database;
    private final RedisGateway redis;

    HotSettlements(HotOrders orders, HotLines lines, HotStockLoader loader, DurableJournal journal,
            HotStoreSource database, RedisGateway redis) {
        this.orders = orders;
        this.lines = lines;
        this.loader = loader;
        this.journal = journal;
        this.database = database;
        this.redis = redis;
    }

    OrderOutcome confirm(OrderId order, Caller caller, Instant now) {
        Reply decided = orders.confirm(order, now);
        if (decided.is("NONE") && loader.restoreOrder(order).isPresent()) {
            decided = orders.confirm(order, now);
        }
        switch (decided.status()) {
            case "NONE" -> { return new Refusal.UnknownOrder(order); }
            case "DONE" -> { return new OrderOutcome.Updated(view(order, now), true); }
            case "CANCELLED" -> { return new Refusal.OrderCancelled(order); }
            case "EXPIRED" -> { return new Refusal.OrderExpired(order); }
            case "BUSY" -> { return new Refusal.Unavailable(true, "the order's reservation is still in progress"); }
            case "GO" -> { }
            default -> throw decided.unexpected("order.lua CONFIRM");
        }
        List<HotLines.Change> changes = new ArrayList<>();
        List<SkuId> missed = new ArrayList<>();
        for (StockLine line : HotOrders.decode(decided.string(1))) {
            Reply reply = lines.confirm(order, line.skuId(), now, caller);
            if (reply.is("NOT_LOADED")) {
                loader.ensureLoaded(line.skuId());
                reply = lines.confirm(order, line.skuId(), now, caller);
            }
            if (reply.is("OK")) {
                changes.add(lines.confirmed(reply, order, line.skuId(), now, caller));
            } else {
                missed.add(line.skuId());
            }
        }
        settle(order, changes, missed, ReservationState.RESERVED);
        orders.finish(order, ReservationState.CONFIRMED, now);
        return new OrderOutcome.Updated(view(order, now), false);
    }

    OrderOutcome cancel(OrderId order, Caller caller, Instant now) {
        Reply decided = orders.cancel(order, now);
        if (decided.is("TOMBSTONE")) {
            Optional<ReservationView> known = database.order(order);
            if (known.isPresent() && !known.get().isTombstone()) {
                // The hot store lost this order: the tombstone just written is replaced by the
                // database's copy, and the order cancelled properly.
                loader.rewriteOrder(order);
                decided = orders.cancel(order, now);
            } else {
                database.tombstone(order, caller.traceId() == null ? null : caller.traceId().value(), now);
                return new OrderOutcome.Updated(new ReservationView(order, ReservationState.CANCELLED, List.of(), now,
                        null, null, now, caller.traceId() == null ? null : caller.traceId().value()), false);
            }
        }
        switch (decided.status()) {
            case "DONE" -> { return new OrderOutcome.Updated(view(order, now), true); }
            case "GO" -> { }
            default -> throw decided.unexpected("order.lua CANCEL");
        }
        release(order, decided.string(1), "CANCEL", StockOp.CANCEL, caller, now);
        orders.finish(order, ReservationState.CANCELLED, now);
        return new OrderOutcome.Updated(view(order, now), false);
    }

    /** Expires one order whose hold has ended; false when it was not due (or no longer held). */
    boolean expire(OrderId order, Caller caller, Instant now) {
        Reply decided = orders.expire(order, now);
        if (decided.is("SKIP") && "NONE".equals(decided.string(1)) && loader.restoreOrder(order).isPresent()) {
            decided = orders.expire(order, now);
        }
        if (!decided.is("GO")) {
            return false;
        }
        release(order, decided.string(1), "EXPIRE", StockOp.EXPIRE, caller, now);
        orders.finish(order, ReservationState.EXPIRED, now);
        return true;
    }

    private void release(OrderId order, String encodedLines, String how, StockOp op, Caller caller, Instant now) {
        List<HotLines.Change> changes = new ArrayList<>();
        List<SkuId> missed = new ArrayList<>();
        for (StockLine line : HotOrders.decode(encodedLines)) {
            Reply reply = lines.release(order, line.skuId(), how, now, caller, List.of());
            if (reply.is("NOT_LOADED")) {
                loader.ensureLoaded(line.skuId());
                reply = lines.release(order, line.skuId(), how, now, caller, List.of());
            }
            if (reply.is("OK")) {
                changes.add(lines.released(reply, order, line.skuId(), op, now, caller));
            } else {
                missed.add(line.skuId());
            }
        }
        settle(order, changes, missed, op == StockOp.EXPIRE ? ReservationState.RESERVED : null);
    }

    /**
     * Journals the changes, then removes their outbox entries. Returning or selling stock the
     * database holds for the order cannot be refused by it, and every line the order holds in
     * the database must have moved here. Otherwise the hot store's copy of the order is stale (the
     * database path changed it meanwhile): what moved is journaled, and the request goes to the
     * database path, which answers from the database's copy; the SKUs are rebuilt from it.
     *
     * @param holding the database state in which a line that did not move here is still to move
     *     (null: any state that holds stock)
     */
    private void settle(OrderId order, List<HotLines.Change> changes, List<SkuId> missed, ReservationState holding) {
        List<StockEvent> events = new ArrayList<>();
        changes.forEach(change -> events.addAll(change.events()));
        List<EventOutcome> outcomes = events.isEmpty() ? List.of() : journal.record(events);
        String refused = null;
        for (int i = 0; i < events.size(); i++) {
            if (outcomes.get(i) instanceof EventOutcome.Rejected rejected) {
                log.warn("the database refused {} of order {}: {}", events.get(i).op(), events.get(i).orderId(),
                        rejected.detail());
                refused = rejected.detail();
            }
        }
        for (HotLines.Change change : changes) {
            try {
                redis.deleteFromOutbox(Keys.outbox(change.skuId()), change.entryIds());
            } catch (RedisGateway.HotStoreUnavailable e) {
                log.debug("outbox entries of {} stay; the sweeper finds them applied", change.skuId(), e);
            }
        }
        if (refused != null) {
            throw new RedisGateway.HotStoreUnavailable("the database disagrees with the hot store about order "
                    + order + ": " + refused, null);
        }
        if (!missed.isEmpty()) {
            Optional<ReservationView> stored = database.order(order);
            boolean stillHeld = stored.isPresent() && (holding == null ? stored.get().state().holdsStock()
                    : stored.get().state() == holding);
            if (stillHeld) {
                throw new RedisGateway.HotStoreUnavailable("the hot store's copy of order " + order
                        + " is stale for " + missed, null);
            }
        }
    }

    /** The order as the hot store has it, or empty when the hot store has no record of it. */
    Optional<ReservationView> find(OrderId order, Instant now) {
        Reply found = orders.get(order, now);
        return found.is("FOUND") ? Optional.of(view(order, now)) : Optional.empty();
    }

    /** The order as the hot store has it now. */
    ReservationView view(OrderId order, Instant now) {
        Reply found = orders.get(order, now);
        if (!found.is("FOUND")) {
            return database.order(order).orElseThrow(() -> new IllegalStateException("order " + order + " vanished"));
        }
        String trace = found.string(6);
        List<ReservedLine> reserved = HotOrders.decodeWithBuckets(found.string(7));
        ReservationState state = HotOrders.state(found.string(1));
        Instant holdEnds = HotOrders.instant(found.string(5));
        return new ReservationView(order, state, reserved, HotOrders.instant(found.string(4)), holdEnds, null,
                state == ReservationState.RESERVED || state == ReservationState.CONFIRMED ? null : now,
                trace == null || trace.isEmpty() ? null : trace);
    }
}
