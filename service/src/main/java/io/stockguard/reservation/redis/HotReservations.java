package io.stockguard.reservation.redis;

import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.platform.Caller;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationOutcome;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reservation on the hot store, as a saga over the order's SKUs: open the order record (the
 * idempotency gate), reserve each line on its SKU (atomic per SKU), make every change durable in
 * the journal, then close the order. A line that fails undoes the lines before it as if they
 * never happened; a caller that dies half-way leaves an OPENING order that a retry takes over, or
 * that expiry cleans up.
 */
final class HotReservations {

    private static final Logger log = LoggerFactory.getLogger(HotReservations.class);
    /** How long a retry waits for its original to finish; a reservation takes milliseconds. */
    private static final java.time.Duration BUSY_WAIT_MAX = java.time.Duration.ofSeconds(2);
    private static final long BUSY_BACKOFF_FIRST_NANOS = 1_000_000;
    private static final long BUSY_BACKOFF_MAX_NANOS = 50_000_000;

    private final HotOrders orders;
    private final HotLines lines;
    private final HotStockLoader loader;
    private final DurableJournal journal;
    private final OutboxDrain drain;
    private final ToIntFunction<SkuId> bucketCounts;
    private final RedisGateway redis;
    private final RedisProperties properties;
    private final io.stockguard.reservation.jdbc.HotStoreSource database;
    private final java.util.function.BiConsumer<SkuId, String> distrust;

    HotReservations(HotOrders orders, HotLines lines, HotStockLoader loader, DurableJournal journal,
            OutboxDrain drain, ToIntFunction<SkuId> bucketCounts, RedisGateway redis, RedisProperties properties,
            io.stockguard.reservation.jdbc.HotStoreSource database,
            java.util.function.BiConsumer<SkuId, String> distrust) {
        this.database = database;
        this.distrust = distrust;
        this.orders = orders;
        this.lines = lines;
        this.loader = loader;
        this.journal = journal;
        this.drain = drain;
        this.bucketCounts = bucketCounts;
        this.redis = redis;
        this.properties = properties;
    }

    ReservationOutcome reserve(ReserveCommand command, Instant now) {
        OrderId order = command.orderId();
        Instant holdEnds = command.commit() ? null : now.plus(command.ttl());
        String trace = command.caller().traceId() == null ? null : command.caller().traceId().value();
        Reply opened = open(command, now, holdEnds, trace);
        switch (opened.status()) {
            case "CANCELLED" -> { return new Refusal.OrderCancelled(order); }
            case "EXPIRED" -> { return new Refusal.OrderExpired(order); }
            case "CONFLICT" -> { return new Refusal.IdempotencyConflict("order " + order); }
            case "BUSY" -> { return new Refusal.Unavailable(true, "another request for this order is in progress"); }
            case "DONE" -> { return replay(order, opened); }
            case "NEW", "RESUME" -> { }
            default -> throw opened.unexpected("order.lua OPEN");
        }
        List<HotLines.Change> held = new ArrayList<>();
        List<SkuId> resumed = new ArrayList<>();
        for (StockLine line : command.linesInLockOrder()) {
            Refusal refusal = reserveLine(command, line, now, holdEnds, held, resumed);
            if (refusal != null) {
                undo(order, held, command.caller(), now);
                orders.abort(order, now);
                return refusal;
            }
        }
        resumed.forEach(drain::drain);
        return journalAndClose(command, held, now, holdEnds);
    }

    /**
     * Opens the order record. A concurrent request for the same order (a client's retry racing its
     * original) waits for the original to finish, briefly and with backoff, and then gets its outcome,
     * as it would from the database ledger, where the second insert waits on the first.
     */
    private Reply open(ReserveCommand command, Instant now, Instant holdEnds, String trace) {
        Reply opened = orders.open(command.orderId(), command.fingerprint(), command.lines(), now, holdEnds, trace);
        long backoffNanos = BUSY_BACKOFF_FIRST_NANOS;
        long deadline = System.nanoTime() + BUSY_WAIT_MAX.toNanos();
        while (opened.is("BUSY") && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(backoffNanos);
            backoffNanos = Math.min(backoffNanos * 2, BUSY_BACKOFF_MAX_NANOS);
            opened = orders.open(command.orderId(), command.fingerprint(), command.lines(), now, holdEnds, trace);
        }
        return opened;
    }

    /** Reserves one line; returns null on success (recording the change) or the refusal. */
    private Refusal reserveLine(ReserveCommand command, StockLine line, Instant now, Instant holdEnds,
            List<HotLines.Change> held, List<SkuId> resumed) {
        OptionalInt bucketCount = bucketCount(line.skuId());
        if (bucketCount.isEmpty()) {
            return new Refusal.UnknownSku(line.skuId());
        }
        int home = command.orderId().homeBucket(bucketCount.getAsInt());
        for (int attempt = 0; attempt < 2; attempt++) {
            Reply reply = lines.reserve(command.orderId(), line.skuId(), line.qty(), home, bucketCount.getAsInt(),
                    command.commit(), command.fingerprint(), now, holdEnds, command.caller());
            switch (reply.status()) {
                case "OK" -> {
                    held.add(lines.reserved(reply, command.orderId(), line.skuId(), line.qty(),
                            command.fingerprint(), now, holdEnds, command.caller()));
                    return null;
                }
                case "ALREADY" -> {
                    // A previous attempt of this order reserved the line; its changes may still
                    // be in the outbox, so they are drained into the database before acknowledging.
                    held.add(new HotLines.Change(line.skuId(), (int) reply.number(1), List.of(), List.of()));
                    resumed.add(line.skuId());
                    return null;
                }
                case "NOT_LOADED" -> loader.ensureLoaded(line.skuId());
                case "SHORT" -> { return new Refusal.InsufficientStock(line.skuId(), line.qty(), reply.number(1)); }
                case "FROZEN" -> { return new Refusal.SkuFrozen(line.skuId()); }
                case "THROTTLED" -> {
                    return new Refusal.Throttled(line.skuId(), java.time.Duration.ofMillis(reply.number(1)));
                }
                case "CANCELLED" -> { return new Refusal.OrderCancelled(command.orderId()); }
                case "EXPIRED" -> { return new Refusal.OrderExpired(command.orderId()); }
                case "BACKLOG" -> {
                    return new Refusal.Unavailable(false, "the journal of SKU " + line.skuId() + " is "
                            + reply.number(1) + " changes behind");
                }
                default -> throw reply.unexpected("reserve.lua");
            }
        }
        return new Refusal.Unavailable(false, "SKU " + line.skuId() + " could not be loaded into the hot store");
    }

    private ReservationOutcome journalAndClose(ReserveCommand command, List<HotLines.Change> held, Instant now,
            Instant holdEnds) {
        OrderId order = command.orderId();
        List<StockEvent> events = new ArrayList<>();
        held.forEach(change -> events.addAll(change.events()));
        List<EventOutcome> outcomes;
        try {
            outcomes = journal.record(events);
        } catch (DurableJournal.JournalUnavailableException e) {
            if (e.maybeRecorded()) {
                // The events may be durable: they stay in the outbox, and the sweeper settles them.
                log.warn("journal of order {} failed while committing; left to the outbox sweeper", order, e);
                return new Refusal.Unavailable(true, "the journal failed while committing");
            }
            log.warn("journal of order {} unavailable; its reservation is undone", order, e);
            undo(order, held, command.caller(), now);
            orders.abort(order, now);
            return new Refusal.Unavailable(false, "the journal is unavailable");
        }
        List<SkuId> fenced = fencedSkus(events, outcomes);
        if (!fenced.isEmpty()) {
            // The database path took these SKUs over (or the hot store was reloaded) after this
            // request passed the routing: the sale is undone here and made on the database path.
            for (HotLines.Change change : held) {
                boolean refusedWhole = change.events().stream().filter(e -> e.op() == StockOp.RESERVE)
                        .allMatch(e -> outcomes.get(events.indexOf(e)) instanceof EventOutcome.Rejected);
                if (refusedWhole) {
                    discardLine(order, change, command.caller(), now);
                } else {
                    // Applied by a sweep before the fence: it stands in the database, so it is cancelled.
                    undoLine(order, change, command.caller(), now);
                }
            }
            orders.abort(order, now);
            String why = outcomes.stream().filter(o -> o instanceof EventOutcome.Rejected r
                    && r.reason() == EventOutcome.Reason.FENCED).map(o -> ((EventOutcome.Rejected) o).detail())
                    .findFirst().orElse("");
            fenced.forEach(sku -> distrust.accept(sku, "the database fenced a sale of the hot store: " + why));
            throw new RedisGateway.HotStoreUnavailable("the hot store no longer owns " + fenced, null);
        }
        Refusal refused = refusalIn(order, events, outcomes);
        if (refused != null && reservedElsewhere(order, events, outcomes)) {
            // The database path reserved this order while Redis was failing: that reservation
            // stands, this one is undone, and the caller gets the original outcome.
            undo(order, held, command.caller(), now);
            Optional<ReservationView> stored = database.order(order);
            if (stored.isPresent() && stored.get().state().holdsStock()) {
                loader.restoreOrder(order);
                return new ReservationOutcome.Reserved(stored.get(), true);
            }
        }
        if (refused != null) {
            log.warn("the database refused the reservation of order {}: {}", order, outcomes);
            distrustWhereImpossible(events, outcomes);
            settleRefusedJournal(command, held, events, outcomes, now);
            return refused;
        }
        forget(held);
        waitForReplicas();
        List<ReservedLine> reserved = held.stream()
                .map(change -> new ReservedLine(change.skuId(), quantity(command, change.skuId()), change.bucket()))
                .toList();
        ReservationState state = command.commit() ? ReservationState.CONFIRMED : ReservationState.RESERVED;
        Reply closed = orders.close(order, state, reserved, now);
        if (closed.is("CANCELLED")) {
            log.info("order {} was cancelled while its reservation was being made", order);
            return new Refusal.OrderCancelled(order);
        }
        String trace = command.caller().traceId() == null ? null : command.caller().traceId().value();
        return new ReservationOutcome.Reserved(new ReservationView(order, state, reserved, now, holdEnds,
                command.commit() ? now : null, null, trace), false);
    }

    /** A refusal that says the hot store's copy of a SKU is wrong has that SKU rebuilt. */
    private void distrustWhereImpossible(List<StockEvent> events, List<EventOutcome> outcomes) {
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i) instanceof EventOutcome.Rejected rejected
                    && (rejected.reason() == EventOutcome.Reason.REGRESSION
                            || rejected.reason() == EventOutcome.Reason.WOULD_GO_NEGATIVE)) {
                distrust.accept(events.get(i).skuId(), rejected.detail());
            }
        }
    }

    private static List<SkuId> fencedSkus(List<StockEvent> events, List<EventOutcome> outcomes) {
        List<SkuId> fenced = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i) instanceof EventOutcome.Rejected rejected
                    && rejected.reason() == EventOutcome.Reason.FENCED && !fenced.contains(events.get(i).skuId())) {
                fenced.add(events.get(i).skuId());
            }
        }
        return fenced;
    }

    /** True when the database refused this order's reservation because it already holds one for it. */
    private static boolean reservedElsewhere(OrderId order, List<StockEvent> events, List<EventOutcome> outcomes) {
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i) instanceof EventOutcome.Rejected rejected
                    && rejected.reason() == EventOutcome.Reason.INVALID_TRANSITION
                    && events.get(i).op() == StockOp.RESERVE && order.equals(events.get(i).orderId())) {
                return true;
            }
        }
        return false;
    }

    /** The first refusal the database gave this order's reservation, as the caller's refusal. */
    private static Refusal refusalIn(OrderId order, List<StockEvent> events, List<EventOutcome> outcomes) {
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i) instanceof EventOutcome.Rejected rejected) {
                StockEvent event = events.get(i);
                return switch (rejected.reason()) {
                    case SKU_FROZEN -> new Refusal.SkuFrozen(event.skuId());
                    case ORDER_CANCELLED -> new Refusal.OrderCancelled(order);
                    case WOULD_GO_NEGATIVE -> new Refusal.InsufficientStock(event.skuId(), event.qty(), 0);
                    default -> new Refusal.Unavailable(false, "the database refused the change: " + rejected.detail());
                };
            }
        }
        return null;
    }

    /**
     * Some of the order's events were refused by the database. What it applied is cancelled
     * (journaled); what it refused is undone in the hot store. The order is then cancelled, so a
     * retry cannot reserve lines the database already holds for it.
     */
    private void settleRefusedJournal(ReserveCommand command, List<HotLines.Change> held, List<StockEvent> events,
            List<EventOutcome> outcomes, Instant now) {
        OrderId order = command.orderId();
        boolean anyApplied = false;
        for (HotLines.Change change : held) {
            boolean applied = change.events().stream().filter(e -> e.op() == StockOp.RESERVE)
                    .anyMatch(e -> !(outcomes.get(events.indexOf(e)) instanceof EventOutcome.Rejected));
            anyApplied |= applied;
            if (!applied) {
                // Refused: never applied in the database, whether or not a sweep took its entries.
                discardLine(order, change, command.caller(), now);
            }
        }
        if (!anyApplied) {
            orders.abort(order, now);
            return;
        }
        Reply cancel = orders.cancel(order, now);
        if (cancel.is("GO")) {
            List<StockEvent> cancels = new ArrayList<>();
            for (HotLines.Change change : held) {
                Reply released = lines.release(order, change.skuId(), "CANCEL", now, command.caller(), List.of());
                if (released.is("OK")) {
                    cancels.addAll(lines.released(released, order, change.skuId(), StockOp.CANCEL, now,
                            command.caller()).events());
                }
            }
            journal.record(cancels);
            orders.finish(order, ReservationState.CANCELLED, now);
        }
    }

    /** Undoes reserved lines as if they never happened; a line already journaled is cancelled instead. */
    private void undo(OrderId order, List<HotLines.Change> held, Caller caller, Instant now) {
        for (HotLines.Change change : held) {
            undoLine(order, change, caller, now);
        }
    }

    private void undoLine(OrderId order, HotLines.Change change, Caller caller, Instant now) {
        if (change.entryIds().isEmpty()) {
            return;
        }
        Reply reply = lines.release(order, change.skuId(), "UNRESERVE", now, caller, ownEntries(change));
        if (reply.is("JOURNALED")) {
            Reply cancelled = lines.release(order, change.skuId(), "CANCEL", now, caller, List.of());
            if (cancelled.is("OK")) {
                journal.record(lines.released(cancelled, order, change.skuId(), StockOp.CANCEL, now, caller).events());
            }
        }
    }

    /**
     * Undoes a line the database refused in full: it was never applied there, so it is undone in
     * the hot store whether or not its outbox entries were swept meanwhile (a sweep finds them
     * refused too).
     */
    private void discardLine(OrderId order, HotLines.Change change, Caller caller, Instant now) {
        if (change.entryIds().isEmpty()) {
            return;
        }
        lines.release(order, change.skuId(), "DISCARD", now, caller, ownEntries(change));
    }

    /**
     * The outbox entries of the order's own events; the transfers that made room for the line in
     * its home bucket stand (they moved stock within the SKU, which stays true).
     */
    private static List<String> ownEntries(HotLines.Change change) {
        List<String> own = new ArrayList<>();
        for (int i = 0; i < change.events().size(); i++) {
            if (change.events().get(i).op().isOrderOperation()) {
                own.add(change.entryIds().get(i));
            }
        }
        return own;
    }

    /** The changes are in the database now: their outbox entries go. */
    private void forget(List<HotLines.Change> held) {
        for (HotLines.Change change : held) {
            try {
                redis.deleteFromOutbox(Keys.outbox(change.skuId()), change.entryIds());
            } catch (RedisGateway.HotStoreUnavailable e) {
                log.debug("outbox entries of {} stay; the sweeper will find them applied", change.skuId(), e);
            }
        }
    }

    private void waitForReplicas() {
        if (properties.waitReplicas() > 0) {
            long reached = redis.waitForReplicas(properties.waitReplicas(), properties.waitTimeout());
            if (reached < properties.waitReplicas()) {
                log.warn("a reservation reached {} of {} replicas within {}", reached, properties.waitReplicas(),
                        properties.waitTimeout());
            }
        }
    }

    private ReservationOutcome replay(OrderId order, Reply done) {
        ReservationState state = HotOrders.state(done.string(1));
        String trace = done.string(4);
        return new ReservationOutcome.Reserved(new ReservationView(order, state,
                HotOrders.decodeWithBuckets(done.string(5)), HotOrders.instant(done.string(2)),
                HotOrders.instant(done.string(3)), null, null, trace == null || trace.isEmpty() ? null : trace), true);
    }

    private OptionalInt bucketCount(SkuId sku) {
        int count = bucketCounts.applyAsInt(sku);
        return count > 0 ? OptionalInt.of(count) : OptionalInt.empty();
    }

    private static int quantity(ReserveCommand command, SkuId sku) {
        return command.lines().stream().filter(l -> l.skuId().equals(sku)).findFirst().orElseThrow().qty();
    }
}
