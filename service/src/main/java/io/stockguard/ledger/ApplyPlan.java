package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.reservation.Ownership;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The in-memory decisions of one application of journaled events: which events apply, which wait,
 * which are refused, and what that does to reservation rows and bucket counters. Pure: it reads
 * nothing and writes nothing; {@link JournalApplier} loads its inputs under lock and writes its
 * outputs.
 *
 * <p>An event waits when it cannot apply yet without anything being wrong: a cancel whose
 * reserve has not arrived (it waits for its ORDER), or a change that does not fit the database's
 * counters while the hot store's R - J still equals the database's D - A, so that only changes
 * preceding it in the hot bucket are missing (it waits for its BUCKET). A change that does not fit
 * and whose R - J differs from D - A comes from a hot store that drifted: it is refused.
 *
 * <p>Each rule has its own class and returns its {@link Verdict} as a value; the plan asks them in
 * their order and is the one place that records what a verdict does, so that a rule can be tested
 * on its own and the plan's outputs have one writer.
 */
final class ApplyPlan {

    private final boolean strict;
    private final Map<OrderId, ReservationRows.Header> headers;
    private final Map<OrderId, Map<SkuId, ReservedLine>> lines;
    private final Map<OrderId, Map<SkuId, List<StockEvent>>> waitingForOrder;
    private final Map<SkuId, BucketSet> sets;

    private final EventIdempotency duplicates;
    private final AllOrNothing wholeOrders;
    private final OwnerFence fence;
    private final StampClaims stamps;
    private final OperationOnce operations;

    private final TransferHalves transfers = new TransferHalves();
    private final List<StockEvent> applied = new ArrayList<>();
    private final Map<OrderId, ReservationRows.Header> newHeaders = new LinkedHashMap<>();
    private final Set<OrderId> changedHeaders = new LinkedHashSet<>();
    private final Map<OrderId, List<ReservedLine>> newLines = new LinkedHashMap<>();
    private final Map<String, Waiting.Wait> newWaits = new LinkedHashMap<>();
    private final List<String> released = new ArrayList<>();
    private final List<Anomaly> anomalies = new ArrayList<>();
    private final Map<String, Stamp> highestStamps = new HashMap<>();
    private static final String CONFIRMED_LINE = "|" + StockOp.CONFIRM.name();

    /** Lines ("order|sku") whose confirm the database has applied, before or in this batch. */
    private final Set<String> soldLines = new HashSet<>();

    ApplyPlan(boolean strict, Map<OrderId, ReservationRows.Header> headers,
            Map<OrderId, Map<SkuId, ReservedLine>> lines, Map<OrderId, Map<SkuId, List<StockEvent>>> waitingForOrder,
            Set<String> known, Set<String> appliedOrderOps, Map<Stamp, String> stampOwners,
            Map<SkuId, BucketSet> sets, Map<SkuId, Ownership> owners, boolean journalBehind,
            Map<OrderId, EventOutcome.Rejected> refusedOrders) {
        this.strict = strict;
        this.headers = new HashMap<>(headers);
        this.lines = new HashMap<>();
        lines.forEach((order, bySku) -> this.lines.put(order, new HashMap<>(bySku)));
        this.waitingForOrder = new HashMap<>();
        waitingForOrder.forEach((order, bySku) -> bySku.forEach((sku, events) -> this.waitingForOrder
                .computeIfAbsent(order, o -> new HashMap<>()).put(sku, new ArrayList<>(events))));
        this.sets = sets;
        duplicates = new EventIdempotency(known);
        wholeOrders = new AllOrNothing(refusedOrders);
        fence = new OwnerFence(owners, journalBehind);
        stamps = new StampClaims(stampOwners);
        operations = new OperationOnce(appliedOrderOps, waitingForOrder);
        appliedOrderOps.stream().filter(op -> op.endsWith(CONFIRMED_LINE))
                .forEach(op -> soldLines.add(op.substring(0, op.length() - CONFIRMED_LINE.length())));
    }

    /** Whether a cancel of this confirm's line, made after the line was sold, waits for it. */
    private boolean saleCancelWaits(StockEvent event) {
        return event.op() == StockOp.CONFIRM && waitingForOrder.getOrDefault(event.orderId(), Map.of())
                .getOrDefault(event.skuId(), List.of()).stream()
                .anyMatch(OrderWait::cancelsASale);
    }

    private static String lineKey(StockEvent event) {
        return event.orderId().value() + "|" + event.skuId().value();
    }

    /**
     * Marks the orders of the batch with a change the hot store had no right to make: all of the
     * order's changes in the batch are then refused together.
     */
    void fence(List<StockEvent> events) {
        fence.fence(events);
    }

    /**
     * Decides an event handed in now. The stamp is claimed before the operation: a hot store that
     * lost writes reissues their stamps, and a client's retry of the lost operation must not hide
     * that as a mere repeat (I5).
     */
    EventOutcome decide(StockEvent event) {
        BucketSet set = sets.get(event.skuId());
        return ruling(event,
                () -> duplicates.judge(event),
                () -> wholeOrders.judge(event),
                () -> fence.judge(event),
                () -> stamps.claim(event),
                () -> operations.claim(event),
                () -> KnownSku.judge(set))
                .orElseGet(() -> body(event, set, Attempt.FIRST));
    }

    /**
     * Asks the rules in their order, up to the first that stops the event, and records what its
     * verdict does; a rule after it never sees the event, so its claims stay free. Empty when every
     * rule lets the event through.
     */
    @SafeVarargs
    private Optional<EventOutcome> ruling(StockEvent event, Supplier<Verdict>... rules) {
        for (Supplier<Verdict> rule : rules) {
            switch (rule.get()) {
                case Verdict.Pass pass -> {
                }
                case Verdict.Flag flag -> anomaly(flag.kind(), event, flag.detail());
                case Verdict.Refuse refuse -> {
                    anomaly(refuse.reason(), event, refuse.detail());
                    return Optional.of(new EventOutcome.Rejected(refuse.reason(), refuse.detail()));
                }
                case Verdict.Answer answer -> {
                    return Optional.of(answer.outcome());
                }
                case Verdict.Wait wait -> {
                    waitFor(event, wait.reason());
                    return Optional.of(EventOutcome.Settled.DEFERRED);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Retries events waiting for their bucket (stored before, or deferred earlier in this batch),
     * in the hot store's order; returns the ids of those that applied. A pass that applies nothing
     * ends it, so there are at most as many passes as events, and one more.
     */
    Set<String> retryWaiting(List<StockEvent> waiting) {
        Set<String> appliedNow = new LinkedHashSet<>();
        boolean progress = true;
        List<StockEvent> left = new ArrayList<>(waiting);
        while (progress && !left.isEmpty()) {
            progress = false;
            for (StockEvent event : List.copyOf(left)) {
                BucketSet set = sets.get(event.skuId());
                if (set != null && body(event, set, Attempt.RETRY) == EventOutcome.Settled.APPLIED) {
                    left.remove(event);
                    appliedNow.add(event.eventId());
                    release(event);
                    progress = true;
                }
            }
        }
        return appliedNow;
    }

    private EventOutcome body(StockEvent event, BucketSet set, Attempt attempt) {
        OrderId order = event.orderId();
        return switch (event.op()) {
            case RESERVE -> ruling(event,
                    () -> OperationOnce.reserveOnce(line(order, event.skuId())),
                    () -> FrozenSku.judge(event, set, strict, attempt),
                    () -> CancelledOrder.judge(event, headers.get(order), waitingForOrder.getOrDefault(order, Map.of()),
                            strict, attempt),
                    () -> CounterFit.judge(event, set, attempt))
                    .orElseGet(() -> reserve(event, set));
            case CONFIRM, CANCEL, EXPIRE -> ruling(event,
                    () -> OrderWait.judge(line(order, event.skuId()), attempt),
                    () -> OrderWait.judgeSale(event, soldLines.contains(lineKey(event)), attempt),
                    () -> SettlementRule.judge(event, headers.get(order), attempt, saleCancelWaits(event)),
                    () -> CounterFit.judge(event, set, attempt))
                    .orElseGet(() -> settle(event, set));
            case RESTOCK, ADJUST, TRANSFER_OUT, TRANSFER_IN -> change(event, set, attempt);
            // The database writes extensions itself when it records them; one arriving from a hot
            // store is not a change it knows how to apply.
            case EXTEND -> new EventOutcome.Rejected(EventOutcome.Reason.INVALID_TRANSITION,
                    "an extension is recorded by the database, never applied from the journal");
        };
    }

    /** Applies a reservation: its line, its order's row if it has none, and the settlements that overtook it. */
    private EventOutcome reserve(StockEvent event, BucketSet set) {
        OrderId order = event.orderId();
        ReservationRows.Header existing = headers.get(order);
        boolean soldOverTombstone = !strict && existing != null && isTombstone(existing)
                && waitingForOrder.getOrDefault(order, Map.of()).isEmpty();
        accept(event, set);
        ReservedLine line = new ReservedLine(event.skuId(), (int) event.qty(), event.bucket());
        lines.computeIfAbsent(order, k -> new HashMap<>()).put(event.skuId(), line);
        newLines.computeIfAbsent(order, k -> new ArrayList<>()).add(line);
        ReservationRows.Header header = new ReservationRows.Header(order, ReservationState.RESERVED,
                event.fingerprint() == null ? "" : event.fingerprint(), event.occurredAt(), event.expiresAt(),
                null, null, event.traceId() == null ? null : event.traceId().value(), 0, event.customerId());
        if (existing == null) {
            headers.put(order, header);
            newHeaders.put(order, header);
        } else if (soldOverTombstone) {
            // The hot store sold an order only the database had tombstoned (I7 broken where the sale
            // was made; CancelledOrder recorded it). Kept as a tombstone, the row would refuse the
            // order's confirm and leave its cancel waiting for ever: the counters would drift from
            // the store that sells the SKU. The database follows that store.
            headers.put(order, header);
            if (newHeaders.containsKey(order)) {
                newHeaders.put(order, header);
            } else {
                changedHeaders.add(order);
            }
        }
        applyWaiting(event, set);
        return EventOutcome.Settled.APPLIED;
    }

    private EventOutcome settle(StockEvent event, BucketSet set) {
        accept(event, set);
        transition(event);
        if (event.op() == StockOp.CONFIRM) {
            soldLines.add(lineKey(event));
            applyWaiting(event, set);
        }
        return EventOutcome.Settled.APPLIED;
    }

    /**
     * Applies the settlements of the line that waited for {@code arrived} (its reserve, or its
     * confirm) and may go now: a cancel of the line's sale only once the line is sold.
     */
    private void applyWaiting(StockEvent arrived, BucketSet set) {
        List<StockEvent> waiting = waitingForOrder.getOrDefault(arrived.orderId(), Map.of())
                .getOrDefault(arrived.skuId(), List.of());
        // A confirm applied here sells the line, which lets a cancel of the sale waiting beside it go
        // too: passes until one applies nothing (each pass applies one at least, so at most as many
        // passes as waiting settlements).
        boolean progress = true;
        while (progress) {
            progress = false;
            for (StockEvent settlement : List.copyOf(waiting)) {
                boolean waitsForSale = OrderWait.cancelsASale(settlement) && !soldLines.contains(lineKey(settlement));
                if (!waitsForSale && set.fits(settlement)) {
                    accept(settlement, set);
                    waiting.remove(settlement);
                    release(settlement);
                    transition(settlement);
                    if (settlement.op() == StockOp.CONFIRM) {
                        soldLines.add(lineKey(settlement));
                    }
                    progress = true;
                }
            }
        }
    }

    private EventOutcome change(StockEvent event, BucketSet set, Attempt attempt) {
        Optional<EventOutcome> stopped = ruling(event,
                () -> transfers.judge(event),
                () -> CounterFit.judge(event, set, attempt));
        if (stopped.isEmpty()) {
            accept(event, set);
            return EventOutcome.Settled.APPLIED;
        }
        if (stopped.get() instanceof EventOutcome.Rejected) {
            transfers.refused(event);
        }
        return stopped.get();
    }

    private void accept(StockEvent event, BucketSet set) {
        set.apply(event);
        applied.add(event);
        if (event.epoch() != null) {
            Stamp stamp = Stamp.of(event);
            highestStamps.merge(event.skuId().value() + "/" + event.bucket(), stamp,
                    (old, candidate) -> candidate.after(old) ? candidate : old);
        }
    }

    /** Stores the event as waiting; one waiting for its order is found by the order's reserve. */
    private void waitFor(StockEvent event, Waiting reason) {
        newWaits.put(event.eventId(), new Waiting.Wait(event, reason));
        if (reason == Waiting.ORDER) {
            OrderId order = event.orderId();
            waitingForOrder.computeIfAbsent(order, k -> new HashMap<>())
                    .computeIfAbsent(event.skuId(), k -> new ArrayList<>()).add(event);
            OrderWait.tombstone(event, headers.get(order)).ifPresent(tombstone -> {
                headers.put(order, tombstone);
                newHeaders.put(order, tombstone);
            });
        }
    }

    /** A waiting event applied: a wait of this batch is dropped, one stored before is deleted. */
    private void release(StockEvent event) {
        if (newWaits.remove(event.eventId()) == null) {
            released.add(event.eventId());
        }
    }

    /** The order follows its lines: confirm, cancel and expiry move the whole order. */
    private void transition(StockEvent event) {
        ReservationRows.Header header = headers.get(event.orderId());
        if (header == null || !event.op().isSettlement()) {
            return;
        }
        ReservationState.Settlement kind = SettlementRule.of(event.op());
        ReservationState to = kind.target();
        if (to == header.state() || (kind == ReservationState.Settlement.CONFIRM
                && header.state() == ReservationState.CANCELLED)) {
            // A late line of a confirm never moves a cancelled order back (SettlementRule).
            return;
        }
        Instant at = event.occurredAt();
        ReservationRows.Header moved = header.moved(to, to == ReservationState.CONFIRMED ? at : header.confirmedAt(),
                to == ReservationState.CONFIRMED ? header.closedAt() : at);
        headers.put(header.orderId(), moved);
        if (newHeaders.containsKey(header.orderId())) {
            newHeaders.put(header.orderId(), moved);
        } else {
            changedHeaders.add(header.orderId());
        }
    }

    private boolean isTombstone(ReservationRows.Header header) {
        return header.state() == ReservationState.CANCELLED && ReservationRows.TOMBSTONE.equals(header.fingerprint())
                && lines.getOrDefault(header.orderId(), Map.of()).isEmpty();
    }

    private ReservedLine line(OrderId order, SkuId sku) {
        return lines.getOrDefault(order, Map.of()).get(sku);
    }

    private void anomaly(EventOutcome.Reason kind, StockEvent event, String detail) {
        anomalies.add(new Anomaly(Instant.now(), kind.name(), event.skuId(), event.bucket(), event.eventId(),
                event.op() + " " + detail));
    }

    /** Who the order is for as this plan leaves its row; null for nobody named, or no row. */
    CustomerId customerOf(OrderId order) {
        ReservationRows.Header header = headers.get(order);
        return header == null ? null : header.customerId();
    }

    Map<SkuId, BucketSet> sets() {
        return sets;
    }

    List<StockEvent> applied() {
        return applied;
    }

    List<ReservationRows.Header> newHeaders() {
        return List.copyOf(newHeaders.values());
    }

    List<ReservationRows.Header> changedHeaders() {
        return changedHeaders.stream().map(headers::get).toList();
    }

    Map<OrderId, List<ReservedLine>> newLines() {
        return newLines;
    }

    /** Events of this batch that wait, with what they wait for. */
    List<Waiting.Wait> newWaits() {
        return List.copyOf(newWaits.values());
    }

    /** Events stored as waiting by an earlier batch that applied now. */
    List<String> released() {
        return released;
    }

    List<Anomaly> anomalies() {
        return anomalies;
    }

    List<Stamp> highestStamps() {
        return List.copyOf(highestStamps.values());
    }
}
