package io.stockguard.reservation.jdbc;

import io.stockguard.journal.EventApplier;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.Journal;
import io.stockguard.journal.StockEvent;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
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
 * Locks reservation rows first (in order id order), then buckets (in SKU, bucket order): the
 * order every other transaction takes them in.
 */
final class JournalApplier implements EventApplier {

    private final TransactionTemplate transactions;
    private final AppliedRows rows;
    private final BucketRows buckets;
    private final Journal journal;

    JournalApplier(TransactionTemplate transactions, AppliedRows rows, BucketRows buckets, Journal journal) {
        this.transactions = transactions;
        this.rows = rows;
        this.buckets = buckets;
        this.journal = journal;
    }

    @Override
    public List<EventOutcome> apply(List<StockEvent> events, boolean strict) {
        if (events.isEmpty()) {
            return List.of();
        }
        return transactions.execute(status -> applyInTransaction(events, strict));
    }

    private List<EventOutcome> applyInTransaction(List<StockEvent> events, boolean strict) {
        Set<OrderId> orders = events.stream().filter(e -> e.orderId() != null).map(StockEvent::orderId)
                .collect(Collectors.toCollection(() -> new TreeSet<>(Comparator.comparing(OrderId::value))));
        Set<SkuId> skus = events.stream().map(StockEvent::skuId).collect(Collectors.toCollection(TreeSet::new));
        ApplyPlan plan = new ApplyPlan(strict, rows.lockReservations(orders), rows.lines(orders),
                rows.pending(orders), rows.known(events), rows.appliedOrderOps(orders), rows.stampOwners(events),
                sets(skus));
        List<EventOutcome> outcomes = new ArrayList<>(events.size());
        for (StockEvent event : events) {
            outcomes.add(plan.decide(event));
        }
        write(plan);
        return outcomes;
    }

    private Map<SkuId, BucketSet> sets(Set<SkuId> skus) {
        Map<SkuId, BucketSet> sets = new java.util.HashMap<>();
        buckets.lockAll(skus).forEach((sku, locked) -> sets.put(sku, BucketSet.of(sku, locked)));
        return sets;
    }

    private void write(ApplyPlan plan) {
        List<BucketRows.NetChange> changes = new ArrayList<>();
        plan.sets().values().forEach(set -> changes.addAll(set.changes()));
        buckets.applyNetOrFail(changes);
        rows.raiseStamps(plan.highestStamps());
        rows.insertHeaders(plan.newHeaders());
        rows.updateHeaders(plan.changedHeaders());
        rows.insertLines(plan.newLines());
        rows.insertPending(plan.newPending());
        rows.deletePending(plan.appliedPending());
        journal.append(plan.applied());
        rows.insertAnomalies(plan.anomalies());
    }
}
