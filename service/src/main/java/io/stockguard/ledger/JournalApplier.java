package io.stockguard.ledger;

import io.stockguard.journal.EventApplier;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.Journal;
import io.stockguard.journal.StockEvent;
import io.stockguard.platform.QueryPipeline;
import io.stockguard.reservation.Ownership;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies the hot store's journaled events to the database in one transaction per call: the
 * database's half of I2 (every acknowledged change applied exactly once) and its final check of
 * I1 (a change that would drive a counter negative is refused and recorded as an anomaly).
 * Locks the SKU rows first (in SKU order: appliers of one SKU take turns, and the hot store's
 * ownership is read under the lock), then reservation rows (in order id order), then buckets (in
 * SKU, bucket order): the order every other transaction takes them in.
 *
 * <p>An order follows its lines: the first settlement applied moves it. When the order has a
 * line on a SKU the database has already taken back from its hot store, that line's own change
 * will never come (its hot store is gone) and the hand-over, which found the order still
 * reserved, had nothing to settle: the transaction that moves the order settles the line
 * ({@link UnsettledLines}). The SKUs the batch's settling orders have lines on are locked with
 * the batch's own, so a hand-over of one of them either committed before (it is read as the
 * database's, and the line settled here) or waits and finds the order settled.
 */
final class JournalApplier implements EventApplier {

    private final TransactionTemplate transactions;
    private final AppliedRows rows;
    private final BucketRows buckets;
    private final Journal journal;
    private final boolean journalBehind;
    private final UnsettledLines unsettled;

    /**
     * @param journalBehind the journal is applied after it is acknowledged (both Redis tiers): a
     *     change of the hot store being drained may have been acknowledged and is applied (see
     *     {@link io.stockguard.reservation.Ownership#acceptsHotChange})
     * @param unsettled what lines on SKUs the database took back owe once their order is settled
     */
    JournalApplier(TransactionTemplate transactions, AppliedRows rows, BucketRows buckets, Journal journal,
            boolean journalBehind, UnsettledLines unsettled) {
        this.transactions = transactions;
        this.rows = rows;
        this.buckets = buckets;
        this.journal = journal;
        this.journalBehind = journalBehind;
        this.unsettled = unsettled;
    }

    /** Attempts at a batch that lost a race with another writer of the same rows. */
    private static final int RACE_RETRIES_MAX = 3;

    /**
     * Applies the batch; a batch that raced another writer of the same order (its reservation row
     * appeared between our read and our insert) or lost a lock race is read and decided again:
     * the second time the row is there, and the decision accounts for it.
     */
    @Override
    public List<EventOutcome> apply(List<StockEvent> events, boolean strict) {
        if (events.isEmpty()) {
            return List.of();
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return transactions.execute(status -> applyInTransaction(events, strict, true));
            } catch (org.springframework.dao.DuplicateKeyException
                    | org.springframework.dao.ConcurrencyFailureException e) {
                if (attempt >= RACE_RETRIES_MAX) {
                    throw e;
                }
            }
        }
    }

    /**
     * Decides the batch and writes what it decided. In strict mode (the synchronous journal, whose
     * callers hear the outcome before they answer) an order's changes apply all or none: when one
     * of them is refused, the batch is decided again with the whole order refused the same way,
     * before anything is written.
     */
    private List<EventOutcome> applyInTransaction(List<StockEvent> events, boolean strict, boolean settleElsewhere) {
        Set<SkuId> skus = events.stream().map(StockEvent::skuId).collect(Collectors.toCollection(TreeSet::new));
        // The other SKUs of the orders this batch may settle, read before any lock (one more round
        // trip, only for a batch with settlements): locked with the batch's own, in SKU order.
        Set<SkuId> elsewhere = new TreeSet<>();
        if (settleElsewhere) {
            elsewhere.addAll(rows.skusOfOrders(events.stream()
                    .filter(e -> e.orderId() != null && e.op().isSettlement()).map(StockEvent::orderId)
                    .collect(Collectors.toSet())));
            elsewhere.removeAll(skus);
        }
        Set<SkuId> locking = new TreeSet<>(skus);
        locking.addAll(elsewhere);
        // Two round trips of reads, in the lock order every transaction keeps (SKUs, orders,
        // buckets): the SKU rows with what waits on them, then the orders that involves and the rest.
        QueryPipeline reads = rows.pipeline();
        Map<SkuId, Ownership> owners = rows.lockSkus(reads, locking);
        List<StockEvent> waiting = rows.waitingForBucket(reads, skus);
        reads.run();
        Set<OrderId> orders = java.util.stream.Stream.concat(events.stream(), waiting.stream())
                .filter(e -> e.orderId() != null).map(StockEvent::orderId)
                .collect(Collectors.toCollection(() -> new TreeSet<>(Comparator.comparing(OrderId::value))));
        // Locked and read once, with the first pass's reads.
        Map<OrderId, ReservationRows.Header> headers = rows.lockReservations(reads, orders);
        Map<OrderId, EventOutcome.Rejected> refusedOrders = new java.util.HashMap<>();
        while (true) {
            var lines = rows.lines(reads, orders);
            var pending = rows.pending(reads, orders);
            var known = rows.known(reads, events);
            var appliedOrderOps = rows.appliedOrderOps(reads, orders);
            var stampOwners = rows.stampOwners(reads, events);
            var locked = buckets.lockAll(reads, skus);
            reads.run();
            Map<SkuId, BucketSet> sets = new java.util.HashMap<>();
            locked.forEach((sku, bucketRows) -> sets.put(sku, BucketSet.of(sku, bucketRows)));
            ApplyPlan plan = new ApplyPlan(strict, headers, lines, pending, known, appliedOrderOps, stampOwners, sets,
                    owners, journalBehind, refusedOrders);
            plan.fence(events);
            List<EventOutcome> outcomes = new ArrayList<>(events.size());
            for (StockEvent event : events) {
                outcomes.add(plan.decide(event));
            }
            retryWaiting(plan, waiting, events, outcomes);
            EventIdempotency.answerRepeatsAlike(events, outcomes);
            Map<OrderId, EventOutcome.Rejected> split = strict
                    ? AllOrNothing.partlyRefused(events, outcomes, refusedOrders) : Map.of();
            if (split.isEmpty()) {
                write(plan);
                settleLinesHandedBack(elsewhere, owners, lines);
                return outcomes;
            }
            refusedOrders.putAll(split);
        }
    }

    /**
     * Changes that waited for their predecessors in a bucket may fit now: those stored by earlier
     * batches and those this batch deferred, in the hot store's order.
     */
    private void retryWaiting(ApplyPlan plan, List<StockEvent> stored, List<StockEvent> events,
            List<EventOutcome> outcomes) {
        List<StockEvent> waiting = new ArrayList<>(stored);
        plan.newWaits().stream().filter(w -> w.reason() == Waiting.BUCKET).map(Waiting.Wait::event)
                .forEach(waiting::add);
        if (waiting.isEmpty()) {
            return;
        }
        waiting.sort(Comparator.comparing((StockEvent e) -> e.epoch() == null ? 0 : e.epoch())
                .thenComparing(e -> e.sequence() == null ? 0 : e.sequence()));
        Set<String> appliedNow = plan.retryWaiting(waiting);
        for (int i = 0; i < events.size(); i++) {
            if (appliedNow.contains(events.get(i).eventId())) {
                outcomes.set(i, EventOutcome.Settled.APPLIED);
            }
        }
    }

    /**
     * Settles what the lines on SKUs the database took back owe, now that this batch is written
     * (an order it moved reads settled). A line found on a SKU that was not locked (it was
     * reserved after the SKUs were read) is left to that SKU's owner.
     */
    private void settleLinesHandedBack(Set<SkuId> elsewhere, Map<SkuId, Ownership> owners,
            Map<OrderId, Map<SkuId, ReservedLine>> lines) {
        if (elsewhere.isEmpty()) {
            return;
        }
        Set<SkuId> onLines = new TreeSet<>();
        lines.values().forEach(of -> onLines.addAll(of.keySet()));
        for (SkuId sku : elsewhere) {
            if (onLines.contains(sku) && owners.get(sku) instanceof Ownership.Database) {
                unsettled.settle(sku, Instant.now(), owed -> applyInTransaction(owed, false, false));
            }
        }
    }

    private void write(ApplyPlan plan) {
        List<BucketRows.NetChange> changes = new ArrayList<>();
        plan.sets().values().forEach(set -> changes.addAll(set.changes()));
        buckets.applyNetOrFail(changes);
        rows.raiseStamps(plan.highestStamps());
        rows.insertHeaders(plan.newHeaders());
        rows.updateHeaders(plan.changedHeaders());
        rows.insertLines(plan.newLines());
        rows.insertPending(plan.newWaits());
        rows.deletePending(plan.released());
        journal.append(plan.applied());
        rows.countCustomers(plan);
        rows.insertStockRequests(plan.applied());
        rows.insertAnomalies(plan.anomalies());
    }
}
