package io.stockguard.ledger;

import io.stockguard.journal.Journal;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockEvents;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationOutcome;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Serves many single-line reservations in one transaction: lock the buckets of their SKUs once,
 * decide every request in memory in arrival order, write each changed bucket once and the rows of
 * all accepted requests together ({@link BatchWrites}: one statement on PostgreSQL), then their
 * events. Each request keeps its own outcome; the batch only shares the locks and the commit. This
 * is hot-row coalescing (the idea of AliSQL's inventory hint and PolarDB's hot-row grouping) done
 * by the application, for any PostgreSQL or MySQL.
 *
 * <p>An order for a named customer is counted against the SKU's per-customer limit in the same
 * transaction, on the customer's {@code customer_hold} row, before its stock is taken (as the
 * single path does); when the stock then refuses it, its count is given back in the transaction.
 * The customers' rows are locked after the buckets, as a cancel or an expiry locks them.
 */
final class BatchReservations {

    private static final Logger log = LoggerFactory.getLogger(BatchReservations.class);

    /** What became of one request of a batch. */
    sealed interface Result permits Decided, Alone {
    }

    /** Decided in the batch; final once the batch has committed. */
    record Decided(ReservationOutcome outcome) implements Result {
    }

    /**
     * To be served on its own: a retry of an order that exists (it replays), a second request of
     * the same order in one batch, or every request of a batch that failed. Serving alone is
     * always safe, even after a batch whose commit failed: the order id makes it idempotent.
     */
    enum Alone implements Result { INSTANCE }

    /** Bound on the sold-out hints kept; past it they are forgotten and relearned. */
    private static final int SOLD_OUT_HINTS_MAX = 100_000;

    private final TransactionTemplate transactions;
    /**
     * SKUs the last batch left without stock. A batch of such a SKU first reads its stock without
     * locking and outside any transaction ({@link #refuseSoldOut}): when it is still empty, the
     * requests are refused from that read. Row
     * locks in PostgreSQL are written to the rows and make the commit wait for a WAL flush, so a
     * flash sale's flood of late buyers would otherwise cost a disk write per batch. A stale hint
     * costs one read; a refusal is never based on the hint itself.
     */
    private final Set<SkuId> soldOut = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final SkuRows skus;
    private final BucketRows buckets;
    private final ReservationRows reservations;
    private final BatchWrites writes;
    private final Journal journal;
    private final Clock clock;

    BatchReservations(TransactionTemplate transactions, SkuRows skus, BucketRows buckets,
            ReservationRows reservations, BatchWrites writes, Journal journal, Clock clock) {
        this.transactions = transactions;
        this.skus = skus;
        this.buckets = buckets;
        this.reservations = reservations;
        this.writes = writes;
        this.journal = journal;
        this.clock = clock;
    }

    /** @param commands single-line reservations; the results are in the same order */
    List<Result> reserve(List<ReserveCommand> commands) {
        Result[] refused = new Result[commands.size()];
        try {
            refuseSoldOut(commands, refused);
        } catch (DataAccessException e) {
            // Decided by the transaction instead, which meets the same failure and says so.
            log.debug("sold-out check of a batch of {} failed", commands.size(), e);
        }
        if (Arrays.stream(refused).allMatch(Objects::nonNull)) {
            return List.of(refused);
        }
        try {
            return transactions.execute(status -> inTransaction(commands, refused));
        } catch (DataAccessException | TransactionException e) {
            log.debug("batch of {} failed; serving its requests one by one", commands.size(), e);
            // A refusal from the snapshot stands: it wrote nothing, and the batch's failure changes no stock it read.
            return Arrays.stream(refused).map(result -> result == null ? (Result) Alone.INSTANCE : result).toList();
        }
    }

    /**
     * For SKUs hinted sold out, before any transaction: one statement reads their committed stock
     * and which of the batch's orders are stored, and the requests of a SKU still without enough
     * stock (or frozen) are refused, when their order is not stored. Such a refusal is what a reader
     * of the committed state at that moment would answer, the same as the single path's. A flash
     * sale's late buyers, most of its requests, then cost one read each batch, not a transaction.
     *
     * @param refused filled in for the requests refused here; the others are left null
     */
    private void refuseSoldOut(List<ReserveCommand> commands, Result[] refused) {
        Set<SkuId> hinted = new TreeSet<>();
        Set<OrderId> orders = new HashSet<>();
        for (ReserveCommand command : commands) {
            SkuId sku = command.lines().getFirst().skuId();
            if (soldOut.contains(sku)) {
                hinted.add(sku);
                orders.add(command.orderId());
            }
        }
        if (hinted.isEmpty()) {
            return;
        }
        BucketRows.SoldOutSnapshot snapshot = buckets.soldOutSnapshot(hinted, orders);
        for (int i = 0; i < commands.size(); i++) {
            ReserveCommand command = commands.get(i);
            StockLine line = command.lines().getFirst();
            BucketRows.Snapshot stock = snapshot.skus().get(line.skuId());
            // Only hinted SKUs were read: the others have no stock here.
            if (stock == null || snapshot.stored().contains(command.orderId())) {
                continue;
            }
            if (!stock.mode().sells()) {
                refused[i] = new Decided(new Refusal.SkuFrozen(line.skuId()));
            } else if (stock.available() < line.qty()) {
                refused[i] = new Decided(new Refusal.InsufficientStock(line.skuId(), line.qty(), stock.available()));
            }
        }
    }

    /** @param refused the requests already refused from the snapshot (the others null); not changed */
    private List<Result> inTransaction(List<ReserveCommand> commands, Result[] refused) {
        Instant now = clock.instant();
        Result[] results = refused.clone();
        List<Integer> candidates = candidates(commands, results);
        Map<SkuId, BucketSet> sets = lock(commands, candidates, results);
        Map<SkuId, Integer> limits = new HashMap<>();
        Map<OrderId, List<ReservedLine>> lines = new LinkedHashMap<>();
        List<ReservationRows.Header> headers = new ArrayList<>();
        for (int i : candidates) {
            if (results[i] != null) {
                continue;
            }
            ReserveCommand command = commands.get(i);
            StockLine line = command.lines().getFirst();
            BucketSet set = sets.get(line.skuId());
            if (set != null && command.customerId() != null) {
                Refusal overLimit = countForCustomer(command, line, limits);
                if (overLimit != null) {
                    results[i] = new Decided(overLimit);
                    continue;
                }
            }
            int home = command.orderId().homeBucket(skus.bucketCount(line.skuId()).orElseThrow());
            ReservationOutcome outcome = decide(command, line, set, home, now);
            if (outcome instanceof Refusal && set != null && command.customerId() != null) {
                // Counted above, and the stock said no: the customer holds nothing more.
                reservations.holds().move(line.skuId(), command.customerId(), -line.qty());
            }
            results[i] = new Decided(outcome);
            if (outcome instanceof ReservationOutcome.Reserved reserved) {
                headers.add(header(command, now));
                lines.put(command.orderId(), reserved.reservation().lines());
            }
        }
        rememberSoldOut(sets);
        replayRefusedOrdersStoredMeanwhile(commands, refused, results);
        if (!headers.isEmpty()) {
            List<StockEvent> events = new ArrayList<>();
            List<BucketRows.NetChange> changes = new ArrayList<>();
            for (BucketSet set : sets.values()) {
                changes.addAll(set.changes());
                events.addAll(set.events());
            }
            writes.write(changes, headers, lines);
            journal.append(events);
        }
        return List.of(results);
    }

    /**
     * The requests this batch decides: not one already refused, not a second request of an order
     * already in the batch, and not an order already stored (those replay alone).
     */
    private List<Integer> candidates(List<ReserveCommand> commands, Result[] results) {
        Set<OrderId> seen = new HashSet<>();
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < commands.size(); i++) {
            if (results[i] != null) {
                continue;
            }
            if (seen.add(commands.get(i).orderId())) {
                candidates.add(i);
            } else {
                results[i] = Alone.INSTANCE;
            }
        }
        Set<OrderId> existing = reservations.existing(seen);
        candidates.removeIf(i -> {
            boolean stored = existing.contains(commands.get(i).orderId());
            if (stored) {
                results[i] = Alone.INSTANCE;
            }
            return stored;
        });
        return candidates;
    }

    /**
     * A refusal is only for an order that is not stored. The check in {@link #candidates} ran before
     * the stock was read: a batch that held the same order (the client's earlier attempt, whose answer
     * it gave up on while the database was paused) can commit in between, take the last units, and
     * make this batch read the SKU empty. Refusing then would deny a reservation that stands (seen in
     * the chaos suite, seed 73, a PostgreSQL pause). Read committed: this query sees that commit,
     * since the stock read that saw its effect came before it. Such orders replay alone instead.
     */
    private void replayRefusedOrdersStoredMeanwhile(List<ReserveCommand> commands, Result[] early, Result[] results) {
        List<Integer> refused = new ArrayList<>();
        for (int i = 0; i < results.length; i++) {
            if (early[i] == null && results[i] instanceof Decided decided && decided.outcome() instanceof Refusal) {
                refused.add(i);
            }
        }
        if (refused.isEmpty()) {
            return;
        }
        Set<OrderId> stored = reservations.existing(refused.stream().map(i -> commands.get(i).orderId()).toList());
        for (int i : refused) {
            if (stored.contains(commands.get(i).orderId())) {
                results[i] = Alone.INSTANCE;
            }
        }
    }

    private void rememberSoldOut(Map<SkuId, BucketSet> sets) {
        if (soldOut.size() > SOLD_OUT_HINTS_MAX) {
            soldOut.clear();
        }
        sets.forEach((sku, set) -> {
            if (set.available() == 0) {
                soldOut.add(sku);
            } else {
                soldOut.remove(sku);
            }
        });
    }

    /** Locks every bucket of the candidates' known SKUs; requests for unknown SKUs are refused. */
    private Map<SkuId, BucketSet> lock(List<ReserveCommand> commands, List<Integer> candidates, Result[] results) {
        Set<SkuId> known = new TreeSet<>();
        for (int i : candidates) {
            SkuId sku = commands.get(i).lines().getFirst().skuId();
            OptionalInt bucketCount = skus.bucketCount(sku);
            if (bucketCount.isEmpty()) {
                results[i] = new Decided(new Refusal.UnknownSku(sku));
            } else {
                known.add(sku);
            }
        }
        Map<SkuId, BucketSet> sets = new LinkedHashMap<>();
        if (!known.isEmpty()) {
            buckets.lockAll(known).forEach((sku, rows) -> sets.put(sku, BucketSet.of(sku, rows)));
        }
        return sets;
    }

    /**
     * Counts the line against its customer's limit of the SKU (read once per SKU and batch, under
     * the buckets' locks); returns the refusal when it would pass it.
     */
    private Refusal countForCustomer(ReserveCommand command, StockLine line, Map<SkuId, Integer> limits) {
        int limit = limits.computeIfAbsent(line.skuId(), sku -> skus.limitPerCustomer(sku).orElse(0));
        OptionalLong refusedAt = reservations.holds().take(line.skuId(), command.customerId(), line.qty(), limit);
        return refusedAt.isPresent() ? new Refusal.LimitExceeded(line.skuId(), command.customerId(), line.qty(),
                limit, refusedAt.getAsLong()) : null;
    }

    private static ReservationOutcome decide(ReserveCommand command, StockLine line, BucketSet set, int home,
            Instant now) {
        if (set == null) {
            return new Refusal.UnknownSku(line.skuId());
        }
        if (!set.sells()) {
            return new Refusal.SkuFrozen(line.skuId());
        }
        StockEvents.Context context = JdbcStockLedger.context(command.caller(), now);
        List<StockEvent> lineEvents = new ArrayList<>(2);
        lineEvents.add(StockEvents.reserve(command.orderId(), line.skuId(), home, line.qty(), context)
                .forCustomer(command.customerId()));
        if (command.commit()) {
            lineEvents.add(StockEvents.confirm(command.orderId(), line.skuId(), home, line.qty(), context));
        }
        if (!set.take(home, lineEvents, context)) {
            return new Refusal.InsufficientStock(line.skuId(), line.qty(), set.available());
        }
        ReservationRows.Header header = header(command, now);
        return new ReservationOutcome.Reserved(header.view(List.of(new ReservedLine(line.skuId(), line.qty(), home))),
                false);
    }

    private static ReservationRows.Header header(ReserveCommand command, Instant now) {
        return new ReservationRows.Header(command.orderId(),
                command.commit() ? ReservationState.CONFIRMED : ReservationState.RESERVED, command.fingerprint(), now,
                command.commit() ? null : now.plus(command.ttl()), command.commit() ? now : null, null,
                command.caller().traceId() == null ? null : command.caller().traceId().value(), 0,
                command.customerId());
    }
}
