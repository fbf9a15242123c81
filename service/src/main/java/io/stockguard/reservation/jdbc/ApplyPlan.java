package io.stockguard.reservation.jdbc;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservedLine;
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
import java.util.Set;

/**
 * The in-memory decisions of one application of journaled events: which events apply, which wait
 * for their reservation, which are refused, and what that does to reservation rows and bucket
 * counters. Pure: it reads nothing and writes nothing; {@link JournalApplier} loads its inputs
 * under lock and writes its outputs.
 */
final class ApplyPlan {

    /** A hot-store stamp: the place of an event in one bucket's history. */
    record Stamp(SkuId skuId, int bucket, long epoch, long sequence) {
        static Stamp of(StockEvent event) {
            return new Stamp(event.skuId(), event.bucket(), event.epoch(), event.sequence());
        }

        boolean after(Stamp other) {
            return other == null || epoch > other.epoch || (epoch == other.epoch && sequence > other.sequence);
        }
    }

    /** Something the database refused, for the anomaly log. */
    record Anomaly(Instant at, String kind, SkuId skuId, Integer bucket, String eventId, String detail) {
    }

    private final boolean strict;
    private final Map<OrderId, ReservationRows.Header> headers;
    private final Map<OrderId, Map<SkuId, ReservedLine>> lines;
    private final Map<OrderId, Map<SkuId, List<StockEvent>>> pending;
    private final Set<String> known;
    private final Set<String> appliedOrderOps;
    private final Map<Stamp, String> stampOwners;
    private final Map<SkuId, BucketSet> sets;

    private final Set<String> seen = new HashSet<>();
    private final List<StockEvent> applied = new ArrayList<>();
    private final Map<OrderId, ReservationRows.Header> newHeaders = new LinkedHashMap<>();
    private final Set<OrderId> changedHeaders = new LinkedHashSet<>();
    private final Map<OrderId, List<ReservedLine>> newLines = new LinkedHashMap<>();
    private final List<StockEvent> newPending = new ArrayList<>();
    private final List<String> appliedPending = new ArrayList<>();
    private final List<Anomaly> anomalies = new ArrayList<>();
    private final Map<String, Stamp> highestStamps = new HashMap<>();

    ApplyPlan(boolean strict, Map<OrderId, ReservationRows.Header> headers,
            Map<OrderId, Map<SkuId, ReservedLine>> lines, Map<OrderId, Map<SkuId, List<StockEvent>>> pending,
            Set<String> known, Set<String> appliedOrderOps, Map<Stamp, String> stampOwners,
            Map<SkuId, BucketSet> sets) {
        this.strict = strict;
        this.headers = new HashMap<>(headers);
        this.lines = new HashMap<>();
        lines.forEach((order, bySku) -> this.lines.put(order, new HashMap<>(bySku)));
        this.pending = new HashMap<>();
        pending.forEach((order, bySku) -> {
            Map<SkuId, List<StockEvent>> copy = new HashMap<>();
            bySku.forEach((sku, events) -> copy.put(sku, new ArrayList<>(events)));
            this.pending.put(order, copy);
        });
        this.known = known;
        this.appliedOrderOps = new HashSet<>(appliedOrderOps);
        pending.values().forEach(bySku -> bySku.values().forEach(events -> events.forEach(e -> this.appliedOrderOps
                .add(e.orderId().value() + "|" + e.skuId().value() + "|" + e.op().name()))));
        this.stampOwners = new HashMap<>(stampOwners);
        this.sets = sets;
    }

    EventOutcome decide(StockEvent event) {
        if (known.contains(event.eventId()) || !seen.add(event.eventId())) {
            return EventOutcome.Settled.DUPLICATE;
        }
        if (event.orderId() != null && !appliedOrderOps.add(event.orderId().value() + "|" + event.skuId().value()
                + "|" + event.op().name())) {
            // The same business operation was applied by another path (the database ledger
            // during a fallback, say): applying it again would count it twice (I3).
            return reject(EventOutcome.Reason.INVALID_TRANSITION, event, "this operation of the order was already "
                    + "applied", true);
        }
        if (event.epoch() != null) {
            Stamp stamp = Stamp.of(event);
            String owner = stampOwners.putIfAbsent(stamp, event.eventId());
            if (owner != null && !owner.equals(event.eventId())) {
                return reject(EventOutcome.Reason.REGRESSION, event, "stamp " + stamp.epoch() + "/" + stamp.sequence()
                        + " already belongs to event " + owner + ": the hot store lost writes", true);
            }
        }
        BucketSet set = sets.get(event.skuId());
        if (set == null) {
            return reject(EventOutcome.Reason.UNKNOWN_SKU, event, "no such SKU in the database", true);
        }
        return switch (event.op()) {
            case RESERVE -> reserve(event, set);
            case CONFIRM, CANCEL, EXPIRE -> settle(event, set);
            case RESTOCK, ADJUST, TRANSFER_OUT, TRANSFER_IN -> change(event, set);
        };
    }

    private EventOutcome reserve(StockEvent event, BucketSet set) {
        OrderId order = event.orderId();
        if (line(order, event.skuId()) != null) {
            return reject(EventOutcome.Reason.INVALID_TRANSITION, event, "a second reservation of the same line", true);
        }
        if (strict && !set.sells()) {
            return new EventOutcome.Rejected(EventOutcome.Reason.SKU_FROZEN, "SKU " + event.skuId() + " is frozen");
        }
        List<StockEvent> waiting = pending.getOrDefault(order, Map.of()).getOrDefault(event.skuId(), List.of());
        ReservationRows.Header header = headers.get(order);
        if (header != null && header.state() == ReservationState.CANCELLED && waiting.isEmpty()) {
            if (strict) {
                return new EventOutcome.Rejected(EventOutcome.Reason.ORDER_CANCELLED, "order " + order
                        + " was cancelled before this reservation reached the database");
            }
            anomaly("ORDER_CANCELLED", event, "an acknowledged reservation of a cancelled order; applied");
        }
        if (!set.fits(event)) {
            return reject(EventOutcome.Reason.WOULD_GO_NEGATIVE, event, "bucket " + event.bucket()
                    + " of the database cannot give " + event.qty() + ": the hot store and the database disagree",
                    true);
        }
        accept(event, set);
        ReservedLine line = new ReservedLine(event.skuId(), (int) event.qty(), event.bucket());
        lines.computeIfAbsent(order, k -> new HashMap<>()).put(event.skuId(), line);
        newLines.computeIfAbsent(order, k -> new ArrayList<>()).add(line);
        if (header == null) {
            header = new ReservationRows.Header(order, ReservationState.RESERVED,
                    event.fingerprint() == null ? "" : event.fingerprint(), event.occurredAt(), event.expiresAt(),
                    null, null, event.traceId() == null ? null : event.traceId().value());
            headers.put(order, header);
            newHeaders.put(order, header);
        }
        for (StockEvent overtaken : waiting) {
            if (set.fits(overtaken)) {
                accept(overtaken, set);
                appliedPending.add(overtaken.eventId());
                transition(overtaken);
            } else {
                anomaly("WOULD_GO_NEGATIVE", overtaken, "an overtaken " + overtaken.op() + " does not fit; left waiting");
            }
        }
        if (!waiting.isEmpty()) {
            waiting.removeIf(e -> appliedPending.contains(e.eventId()));
        }
        return EventOutcome.Settled.APPLIED;
    }

    private EventOutcome settle(StockEvent event, BucketSet set) {
        OrderId order = event.orderId();
        if (line(order, event.skuId()) == null) {
            // It overtook its reservation: journal it as waiting, and let the order read as
            // cancelled meanwhile, so nothing sells it again (I7).
            pending.computeIfAbsent(order, k -> new HashMap<>())
                    .computeIfAbsent(event.skuId(), k -> new ArrayList<>()).add(event);
            newPending.add(event);
            if (!headers.containsKey(order) && event.op() != StockOp.CONFIRM) {
                ReservationRows.Header tombstone = new ReservationRows.Header(order, ReservationState.CANCELLED,
                        ReservationRows.TOMBSTONE, event.occurredAt(), null, null, event.occurredAt(),
                        event.traceId() == null ? null : event.traceId().value());
                headers.put(order, tombstone);
                newHeaders.put(order, tombstone);
            }
            return EventOutcome.Settled.DEFERRED;
        }
        if (!set.fits(event)) {
            return reject(EventOutcome.Reason.WOULD_GO_NEGATIVE, event, event.op() + " does not fit bucket "
                    + event.bucket(), true);
        }
        accept(event, set);
        transition(event);
        return EventOutcome.Settled.APPLIED;
    }

    private EventOutcome change(StockEvent event, BucketSet set) {
        if (!set.fits(event)) {
            return reject(EventOutcome.Reason.WOULD_GO_NEGATIVE, event, event.op() + " of " + event.qty()
                    + " does not fit bucket " + event.bucket(), true);
        }
        accept(event, set);
        return EventOutcome.Settled.APPLIED;
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

    /** The order follows its lines: confirm, cancel and expiry move the whole order. */
    private void transition(StockEvent event) {
        ReservationRows.Header header = headers.get(event.orderId());
        if (header == null) {
            return;
        }
        ReservationState to = switch (event.op()) {
            case CONFIRM -> ReservationState.CONFIRMED;
            case CANCEL -> ReservationState.CANCELLED;
            case EXPIRE -> ReservationState.EXPIRED;
            default -> header.state();
        };
        if (to == header.state()) {
            return;
        }
        Instant at = event.occurredAt();
        ReservationRows.Header moved = new ReservationRows.Header(header.orderId(), to, header.fingerprint(),
                header.createdAt(), header.expiresAt(), to == ReservationState.CONFIRMED ? at : header.confirmedAt(),
                to == ReservationState.CONFIRMED ? header.closedAt() : at, header.traceId());
        headers.put(header.orderId(), moved);
        if (newHeaders.containsKey(header.orderId())) {
            newHeaders.put(header.orderId(), moved);
        } else {
            changedHeaders.add(header.orderId());
        }
    }

    private ReservedLine line(OrderId order, SkuId sku) {
        return lines.getOrDefault(order, Map.of()).get(sku);
    }

    private EventOutcome reject(EventOutcome.Reason reason, StockEvent event, String detail, boolean anomaly) {
        if (anomaly) {
            anomaly(reason.name(), event, detail);
        }
        return new EventOutcome.Rejected(reason, detail);
    }

    private void anomaly(String kind, StockEvent event, String detail) {
        anomalies.add(new Anomaly(Instant.now(), kind, event.skuId(), event.bucket(), event.eventId(),
                event.op() + " " + detail));
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

    List<StockEvent> newPending() {
        return newPending.stream().filter(e -> !appliedPending.contains(e.eventId())).toList();
    }

    /** Waiting events applied now that were stored as waiting before this batch. */
    List<String> appliedPending() {
        Set<String> storedNow = new HashSet<>();
        newPending.forEach(e -> storedNow.add(e.eventId()));
        return appliedPending.stream().filter(id -> !storedNow.contains(id)).toList();
    }

    List<Anomaly> anomalies() {
        return anomalies;
    }

    List<Stamp> highestStamps() {
        return List.copyOf(highestStamps.values());
    }
}
