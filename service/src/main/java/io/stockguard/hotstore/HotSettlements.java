package io.stockguard.hotstore;

import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.JournalProgress;
import io.stockguard.journal.StockOp;
import io.stockguard.platform.Caller;
import io.stockguard.reservation.HoldExtension;
import io.stockguard.reservation.OrderOutcome;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

/**
 * Confirm, cancel and expiry on the hot store. The order record decides the transition (atomic
 * in its slot); each line then moves its stock on its SKU (idempotent per line, at the epoch that
 * owns the SKU); the changes are journaled; the order is marked done. A caller that dies half-way
 * leaves the order in its transitional state, and the next attempt resumes it. A record made under
 * another epoch, or missing, is first replaced by the database's copy: the database has everything
 * an older epoch acknowledged.
 */
final class HotSettlements {

    private static final Logger log = LoggerFactory.getLogger(HotSettlements.class);
    private static final int LINE_ATTEMPTS_MAX = 3;
    /**
     * How long an extension waits for its reservation to reach the database (Kafka journal): the
     * applier's lag is milliseconds when healthy; beyond this the caller hears "retry".
     */
    private static final Duration EXTENSION_RECORD_WAIT = Duration.ofSeconds(2);

    private final HotOrders orders;
    private final HotLines lines;
    private final HotStockLoader loader;
    private final DurableJournal journal;
    private final RedisGateway redis;
    private final RedisProperties properties;
    private final ReplicaAcknowledgement replicas;
    private final OrderDecisions decisions;
    private final JournalProgress progress;

    HotSettlements(HotOrders orders, HotLines lines, HotStockLoader loader, DurableJournal journal,
            RedisGateway redis, RedisProperties properties, JournalProgress progress, ReplicaAcknowledgement replicas) {
        this.properties = properties;
        this.replicas = replicas;
        this.progress = progress;
        this.decisions = new OrderDecisions(loader);
        this.orders = orders;
        this.lines = lines;
        this.loader = loader;
        this.journal = journal;
        this.redis = redis;
    }

    OrderOutcome confirm(OrderId order, Caller caller, Instant now, Map<SkuId, Long> epochs) {
        // A record still opening is checked too: the attempt that opened it may have lost Redis and
        // made the order on the database path, and then the database's copy is the truth of it.
        OrderDecision.Go go;
        switch (decisions.decide(order, () -> orders.confirm(order, now), epochs)) {
            case OrderDecision.Go toGo -> go = toGo;
            case OrderDecision.NoRecord none -> { return new Refusal.UnknownOrder(order); }
            case OrderDecision.Done done -> { return new OrderOutcome.Updated(view(order, now), true); }
            case OrderDecision.Cancelled cancelled -> { return new Refusal.OrderCancelled(order); }
            case OrderDecision.Expired expired -> { return new Refusal.OrderExpired(order); }
            case OrderDecision.Busy busy -> {
                return new Refusal.Unavailable(false, "the order's reservation is still in progress");
            }
            case OrderDecision.Foreign foreign -> throw OrderDecisions.rewrittenYetForeign(order);
        }
        List<HotLines.Change> changes = new ArrayList<>();
        boolean madeNow = false;
        for (StockLine line : RecordedLines.decode(go.lines())) {
            long epoch = epochOf(epochs, line.skuId());
            LineStep.ToConfirm step = onLine(order, line.skuId(), epoch,
                    () -> lines.confirm(order, line.skuId(), now, caller, epoch));
            if (step instanceof LineStep.Moved(HotLines.Change change)) {
                changes.add(change);
                madeNow = true;
            } else if (step instanceof LineStep.Already(String state, String entries)) {
                // An earlier attempt confirmed the line: its change is journaled now if it still waits.
                changes.add(lines.pending(line.skuId(), -1, entries));
            } else {
                return disagreement(order, "CONFIRM", line.skuId(), step, changes, epochs);
            }
        }
        journalOrTakeOver(order, changes);
        orders.finish(order, ReservationState.CONFIRMED, now);
        // An earlier attempt confirmed every line (this one finished it): a replay.
        return new OrderOutcome.Updated(view(order, now), !madeNow);
    }

    OrderOutcome cancel(OrderId order, Caller caller, Instant now, Map<SkuId, Long> epochs) {
        // A confirm under way (BUSY) is waited for only when it runs under the epochs that own the
        // SKUs now: one the database fenced is never finished here, and the database has the order.
        switch (decisions.decide(order, () -> orders.cancel(order, now), epochs)) {
            case OrderDecision.Tombstone tombstone -> {
                // The hot store had no record, and the database none either (decide asked it):
                // the tombstone is kept in the database too, so every path refuses a late reserve.
                String trace = caller.traceId() == null ? null : caller.traceId().value();
                loader.tombstone(order, trace, now);
                return new OrderOutcome.Updated(new ReservationView(order, ReservationState.CANCELLED, List.of(), now,
                        null, null, now, trace, 0, null), false);
            }
            case OrderDecision.Done done -> {
                if (done.state().equals("CANCELLED") && done.recorded().isEmpty()) {
                    // A tombstone: the attempt that made it may have died before the database's copy
                    // (Redis failed mid-request), and every path must refuse a late reserve (I7).
                    loader.tombstone(order, caller.traceId() == null ? null : caller.traceId().value(), now);
                }
                return new OrderOutcome.Updated(view(order, now), true);
            }
            case OrderDecision.Busy busy -> {
                return new Refusal.Unavailable(false, "a confirm of the order is under way");
            }
            case OrderDecision.Go go -> {
                OrderOutcome refused = release(order, go.lines(), "CANCEL", StockOp.CANCEL, caller, now, epochs);
                if (refused != null) {
                    return refused;
                }
                orders.finish(order, ReservationState.CANCELLED, now);
                return new OrderOutcome.Updated(view(order, now), false);
            }
            case OrderDecision.Foreign foreign -> throw OrderDecisions.rewrittenYetForeign(order);
        }
    }

    /**
     * Extends a held order's hold: the order record decides (atomic in its slot, like every
     * transition), then the database records it, so that the sweeper (which pages through the
     * database's holds) and the database path after a fallback see the hold's new end. The answer
     * waits for that record: an extension the database does not have is not acknowledged.
     */
    OrderOutcome extend(HoldExtension extension, Instant now, Map<SkuId, Long> epochs) {
        OrderId order = extension.orderId();
        OrderDecision.Extended extended;
        switch (decisions.decide(order,
                () -> orders.extend(order, extension.hold(), HoldExtension.PER_ORDER_MAX, now), epochs)) {
            case OrderDecision.Extended made -> extended = made;
            case OrderDecision.NoRecord none -> { return new Refusal.UnknownOrder(order); }
            case OrderDecision.Confirmed confirmed -> { return new Refusal.OrderConfirmed(order); }
            case OrderDecision.Cancelled cancelled -> { return new Refusal.OrderCancelled(order); }
            case OrderDecision.Expired expired -> { return new Refusal.OrderExpired(order); }
            case OrderDecision.Busy busy -> {
                return new Refusal.Unavailable(false, "the order's reservation is still in progress");
            }
            case OrderDecision.NoExtensionLeft used -> {
                return new Refusal.ExtensionLimit(order, Instant.ofEpochMilli(used.holdEndsMillis()),
                        used.extensions(), false);
            }
            case OrderDecision.Foreign foreign -> throw OrderDecisions.rewrittenYetForeign(order);
        }
        if (extended.extensions() > 0) {
            // Recorded on a retry too: the attempt that extended the hold may have died before this.
            List<SkuId> skus = RecordedLines.decodeWithBuckets(extended.recorded()).stream().map(ReservedLine::skuId)
                    .toList();
            Refusal unrecorded = recordExtension(order, Instant.ofEpochMilli(extended.holdEndsMillis()),
                    extended.extensions(), extension.caller(), now, skus);
            if (unrecorded != null) {
                return unrecorded;
            }
        }
        return new OrderOutcome.Updated(view(order, now), extended.already());
    }

    /**
     * The database's record of an extension; null when made, or why not. With Kafka the
     * reservation itself may not have reached the database yet: that is waited for, briefly.
     */
    private Refusal recordExtension(OrderId order, Instant holdEnds, int extensions, Caller caller, Instant now,
            List<SkuId> skus) {
        try {
            Optional<ReservationView> stored = loader.recordExtension(order, holdEnds, extensions, caller, now);
            if (stored.isEmpty()) {
                for (SkuId sku : skus) {
                    progress.awaitApplied(sku, EXTENSION_RECORD_WAIT);
                }
                stored = loader.recordExtension(order, holdEnds, extensions, caller, now);
            }
            if (stored.isEmpty()) {
                return new Refusal.Unavailable(true, "the database does not have the order's reservation yet");
            }
            // The database moved the order on by itself: it served the order's SKUs since (a fallback),
            // and it is the truth of the order now.
            return switch (stored.get().state()) {
                case RESERVED -> null;
                case CONFIRMED, CANCELLED, EXPIRED -> Refusal.movedOn(order, stored.get().state());
            };
        } catch (DataAccessException | TransactionException e) {
            log.warn("the extension of order {} is made in Redis but not recorded in the database: {}", order,
                    e.getMessage());
            return new Refusal.Unavailable(true, "the database failed while recording the extension");
        }
    }

    /** Expires one order whose hold has ended; false when it was not due (or no longer held). */
    boolean expire(OrderId order, Caller caller, Instant now, Map<SkuId, Long> epochs) {
        OrderDecision.ToExpire decided = decisions.decide(order, () -> orders.expire(order, now), epochs);
        if (decided instanceof OrderDecision.Stuck) {
            // Left half-way by a caller that died: the database (which the sweeper has brought up to
            // date with whatever that caller left in the outbox) says what the order is.
            loader.rewriteOrder(order, sku -> epochs.getOrDefault(sku, 0L), true);
            decided = orders.expire(order, now);
        }
        if (decided instanceof OrderDecision.NotDue notDue && notDue.state().equals("RESERVED")
                && notDue.extensions() > 0 && notDue.holdEndsMillis() > now.toEpochMilli()) {
            // The database thought the hold over: an extension it never heard of (its caller was told
            // "outcome unknown" and did not retry). Recorded now, the sweeper stops coming back.
            List<SkuId> skus = RecordedLines.decodeWithBuckets(notDue.recorded()).stream().map(ReservedLine::skuId)
                    .toList();
            recordExtension(order, Instant.ofEpochMilli(notDue.holdEndsMillis()), notDue.extensions(), caller, now,
                    skus);
        }
        if (!(decided instanceof OrderDecision.Go go)) {
            return false;
        }
        if (release(order, go.lines(), "EXPIRE", StockOp.EXPIRE, caller, now, epochs) != null) {
            return false;
        }
        orders.finish(order, ReservationState.EXPIRED, now);
        return true;
    }

    /** Runs a line step; a line record of another epoch is replaced by the database's and tried again. */
    private <S extends LineStep> S onLine(OrderId order, SkuId sku, long epoch, Supplier<S> step) {
        for (int attempt = 1; ; attempt++) {
            S reply = step.get();
            if (reply instanceof LineStep.NotSold(NotOwner why)) {
                throw why.takeOver(sku, epoch);
            }
            if (!(reply instanceof LineStep.Foreign) || attempt >= LINE_ATTEMPTS_MAX) {
                return reply;
            }
            loader.rewriteLine(order, sku, epoch);
        }
    }

    /** Returns each line's stock (cancel, expiry); null when done, or the answer when a line disagreed. */
    private OrderOutcome release(OrderId order, String encodedLines, String how, StockOp op, Caller caller,
            Instant now, Map<SkuId, Long> epochs) {
        List<HotLines.Change> changes = new ArrayList<>();
        for (StockLine line : RecordedLines.decode(encodedLines)) {
            long epoch = epochOf(epochs, line.skuId());
            LineStep.ToRelease step = onLine(order, line.skuId(), epoch,
                    () -> lines.release(order, line.skuId(), how, now, caller, epoch, List.of()));
            if (step instanceof LineStep.Moved(HotLines.Change change)) {
                changes.add(change);
            } else if (step instanceof LineStep.Already(String state, String entries)
                    && state.equals(op == StockOp.EXPIRE ? "EXPIRED" : "CANCELLED")) {
                changes.add(lines.pending(line.skuId(), -1, entries));
            } else if (!(step instanceof LineStep.Tombstone)) {
                return disagreement(order, how, line.skuId(), step, changes, epochs);
            }
        }
        journalOrTakeOver(order, changes);
        if (changes.isEmpty() && op == StockOp.CANCEL) {
            // A cancel that met a reservation still opening, before any of its lines: the lines are
            // tombstoned in the hot store, and the order in the database too (I7), so that the
            // reservation is refused on every path, even if the hot store loses its records.
            loader.tombstone(order, caller.traceId() == null ? null : caller.traceId().value(), now);
        }
        return null;
    }

    /**
     * A line's record disagrees with the order's (it had moved on by itself): what moved is
     * journaled, the order is rewritten from the database, and the caller hears what the database
     * says. Records at the current epoch disagree only when a step of the order died half-way.
     */
    private OrderOutcome disagreement(OrderId order, String how, SkuId sku, LineStep reply,
            List<HotLines.Change> changes, Map<SkuId, Long> epochs) {
        log.warn("{} of order {}: the line on {} answered {}; the order is rewritten from the database", how, order,
                sku, reply);
        journalOrTakeOver(order, changes);
        Optional<ReservationView> stored = loader.rewriteOrder(order, s -> epochs.getOrDefault(s, 0L));
        if (stored.isEmpty()) {
            return new Refusal.UnknownOrder(order);
        }
        return switch (stored.get().state()) {
            case CANCELLED -> how.equals("CANCEL") ? new OrderOutcome.Updated(stored.get(), true)
                    : new Refusal.OrderCancelled(order);
            case EXPIRED -> how.equals("CONFIRM") ? new Refusal.OrderExpired(order)
                    : new OrderOutcome.Updated(stored.get(), true);
            case CONFIRMED -> how.equals("CONFIRM") ? new OrderOutcome.Updated(stored.get(), true)
                    : new Refusal.Unavailable(false, "order " + order + " is being changed; retry");
            case RESERVED -> new Refusal.Unavailable(false, "order " + order + " is being changed; retry");
        };
    }

    /**
     * Journals the changes, then removes their outbox entries. The owner's changes cannot be refused
     * by the database unless its copy of the SKU is wrong or it no longer owns it: then the SKU is
     * taken over (and reloaded from the database), and the caller retries.
     */
    private void journalOrTakeOver(OrderId order, List<HotLines.Change> changes) {
        List<StockEvent> events = new ArrayList<>();
        changes.forEach(change -> events.addAll(change.events()));
        if (!events.isEmpty()) {
            // Short of replicas, the change still stands (see ReplicaAcknowledgement).
            replicas.replicated();
        }
        List<EventOutcome> outcomes = events.isEmpty() ? List.of() : journal.record(events);
        for (int i = 0; i < events.size(); i++) {
            if (outcomes.get(i) instanceof EventOutcome.Rejected rejected) {
                log.warn("the database refused {} of order {}: {}", events.get(i).op(), order, rejected.detail());
                throw new StaleOwner(events.get(i).skuId(), events.get(i).epoch(), "the database refused its "
                        + events.get(i).op() + ": " + rejected.detail(),
                        rejected.reason() == EventOutcome.Reason.REGRESSION);
            }
        }
        changes.forEach(change -> redis.forgetJournaled(Keys.outbox(change.skuId()), change.entryIds()));
    }

    /** The SKUs of the lines the hot store's record of the order asked for (none without a record). */
    List<SkuId> askedSkus(OrderId order, Instant now) {
        return orders.get(order, now).map(found -> RecordedLines.decode(found.lines()).stream().map(StockLine::skuId)
                .distinct().toList()).orElse(List.of());
    }

    /** The epoch that owns a line's SKU, as the router found it; a SKU it did not route is an owner unknown. */
    private static long epochOf(Map<SkuId, Long> epochs, SkuId sku) {
        Long epoch = epochs.get(sku);
        if (epoch == null) {
            throw new StaleOwner(sku, -1, "the order's record names a SKU the request was not routed for");
        }
        return epoch;
    }

    /** The order as the hot store has it, or empty when the hot store has no record of it. */
    /**
     * The order as the hot store has it, when that is the truth of it: every line recorded under the
     * epoch that owns its SKU now ({@code owners}; null for a SKU the hot store does not own). A
     * record of an older epoch was settled since, if at all, on the database, which has everything
     * an older epoch acknowledged; a reservation still opening is not one yet.
     */
    Optional<ReservationView> find(OrderId order, Instant now, java.util.function.Function<SkuId, Long> owners) {
        Optional<HotOrders.OrderRecord> found = orders.get(order, now);
        if (found.isEmpty() || found.get().state().equals("OPENING")) {
            return Optional.empty();
        }
        Map<SkuId, Long> recorded = RecordedLines.epochs(found.get().recorded());
        boolean current = !recorded.isEmpty() && recorded.entrySet().stream()
                .allMatch(line -> line.getValue().equals(owners.apply(line.getKey())));
        return current ? Optional.of(view(order, now)) : Optional.empty();
    }

    /** The order as the hot store has it now. */
    ReservationView view(OrderId order, Instant now) {
        Optional<HotOrders.OrderRecord> stored = orders.get(order, now);
        if (stored.isEmpty()) {
            return loader.order(order).orElseThrow(() -> new IllegalStateException("order " + order + " vanished"));
        }
        HotOrders.OrderRecord found = stored.get();
        ReservationState state = RecordedLines.state(found.state());
        return new ReservationView(order, state, RecordedLines.decodeWithBuckets(found.recorded()), found.createdAt(),
                found.holdEndsAt(), null,
                state == ReservationState.RESERVED || state == ReservationState.CONFIRMED ? null : now,
                found.traceId(), found.extensions(), CustomerId.ofNullable(found.customer()));
    }
}
