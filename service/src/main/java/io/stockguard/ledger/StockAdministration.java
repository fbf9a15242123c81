package io.stockguard.ledger;

import io.stockguard.audit.AuditLog;
import io.stockguard.journal.Journal;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockEvents;
import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.Timestamps;
import io.stockguard.reservation.BucketView;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.reservation.StockCommand;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLimits;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Stock changes that do not belong to an order: creating a SKU or setting its total, restocking,
 * an operator's adjustment. Each locks the SKU and all its buckets,
 * journals one event per bucket it changes, and writes an audit entry in the same transaction.
 * (The mode a freeze sets is stored by {@link DatabaseModeStore}.)
 */
final class StockAdministration {

    private final TransactionTemplate transactions;
    private final JdbcTemplate jdbc;
    private final io.stockguard.platform.SqlStatements sql;
    private final io.stockguard.platform.SqlDialect dialect;
    private final SkuRows skus;
    private final BucketRows buckets;
    private final Journal journal;
    private final AuditLog audit;
    private final Clock clock;

    StockAdministration(TransactionTemplate transactions, JdbcTemplate jdbc, io.stockguard.platform.SqlStatements sql,
            io.stockguard.platform.SqlDialect dialect, SkuRows skus, BucketRows buckets, Journal journal,
            AuditLog audit, Clock clock) {
        this.transactions = transactions;
        this.jdbc = jdbc;
        this.sql = sql;
        this.dialect = dialect;
        this.skus = skus;
        this.buckets = buckets;
        this.journal = journal;
        this.audit = audit;
        this.clock = clock;
    }

    StockChangeOutcome apply(StockCommand command) {
        return apply(command, skus -> { });
    }

    /**
     * @param guard run first in the transaction with the SKU: the database path of the Redis tiers
     *     checks there that the database owns it
     */
    StockChangeOutcome apply(StockCommand command, java.util.function.Consumer<List<SkuId>> guard) {
        return transactions.execute(status -> {
            guard.accept(List.of(command.skuId()));
            StockChangeOutcome outcome = switch (command) {
                case StockCommand.Upsert upsert -> upsert(upsert);
                case StockCommand.Restock restock -> restock(restock);
                case StockCommand.Adjust adjust -> adjust(adjust);
            };
            if (outcome instanceof Refusal) {
                status.setRollbackOnly();
            }
            return outcome;
        });
    }

    /**
     * One statement for the SKU and its buckets: a stock read is the second wave's commonest
     * request, and on the database tier each round trip it saves is the database's CPU too.
     */
    Optional<SkuStockView> view(SkuId skuId) {
        return skus.findWithBuckets(skuId).map(found -> view(found.sku(), found.buckets()));
    }

    private StockChangeOutcome upsert(StockCommand.Upsert command) {
        Instant now = clock.instant();
        Optional<SkuRows.Sku> existing = skus.lock(command.skuId());
        if (existing.isEmpty()) {
            int bucketCount = command.bucketCount() == null ? StockLimits.BUCKETS_DEFAULT : command.bucketCount();
            long safetyStock = command.safetyStock() == null ? 0 : command.safetyStock();
            if (skus.insertIfAbsent(command.skuId(), bucketCount, safetyStock, now)) {
                skus.setTerms(command.skuId(), command.limitPerCustomer(), command.lowStockThreshold(), now);
                return create(command, bucketCount, now);
            }
            existing = skus.lock(command.skuId());
        }
        SkuRows.Sku sku = existing.orElseThrow();
        if (command.bucketCount() != null && command.bucketCount() != sku.bucketCount()) {
            throw new InvalidRequestException("buckets", "SKU " + sku.skuId() + " has " + sku.bucketCount()
                    + " buckets; the count is fixed once a SKU exists");
        }
        List<BucketRows.Row> rows = buckets.lock(command.skuId());
        SkuStockView before = view(sku, rows);
        long delta = command.total() - before.total();
        StockChangeOutcome refusal = change(command.skuId(), rows, delta, null, command.caller(), now, false);
        if (refusal != null) {
            return refusal;
        }
        if (command.safetyStock() != null) {
            skus.setSafetyStock(command.skuId(), command.safetyStock(), now);
        }
        skus.setTerms(command.skuId(), command.limitPerCustomer(), command.lowStockThreshold(), now);
        return changed("SKU_SET", "set by the catalogue", before, command.caller(), now);
    }

    private StockChangeOutcome create(StockCommand.Upsert command, int bucketCount, Instant now) {
        journal.append(buckets.insertNew(Map.of(command.skuId(), bucketCount), Map.of(command.skuId(),
                command.total()), JdbcStockLedger.context(command.caller(), now)));
        SkuStockView after = view(command.skuId()).orElseThrow();
        audit.record(command.caller().actor(), "SKU_CREATE", target(command.skuId()), "created by the catalogue",
                null, summary(after), command.caller().traceId());
        return new StockChangeOutcome.Changed(null, after, false);
    }

    private StockChangeOutcome restock(StockCommand.Restock command) {
        return changeTotal(command.skuId(), command.requestId(), "RESTOCK", command.fingerprint(), command.caller(),
                "goods received", before -> command.qty(), true);
    }

    private StockChangeOutcome adjust(StockCommand.Adjust command) {
        return changeTotal(command.skuId(), command.requestId(), "ADJUST", command.fingerprint(), command.caller(),
                command.reason().strip(),
                before -> command.set() != null ? command.set() - before.total() : command.delta(), false);
    }

    private StockChangeOutcome changeTotal(SkuId skuId, String requestId, String action, String fingerprint,
            Caller caller, String reason, java.util.function.ToLongFunction<SkuStockView> deltaOf, boolean restock) {
        Instant now = clock.instant();
        Optional<SkuRows.Sku> sku = skus.lock(skuId);
        if (sku.isEmpty()) {
            return new Refusal.UnknownSku(skuId);
        }
        if (requestId != null) {
            StockChangeOutcome replay = claimRequest(requestId, skuId, action, fingerprint, sku.get(), now);
            if (replay != null) {
                return replay;
            }
        }
        List<BucketRows.Row> rows = buckets.lock(skuId);
        SkuStockView before = view(sku.get(), rows);
        long delta = deltaOf.applyAsLong(before);
        if (before.total() + delta > StockLimits.TOTAL_MAX) {
            throw new InvalidRequestException("qty", "the total would exceed " + StockLimits.TOTAL_MAX);
        }
        StockChangeOutcome refusal = change(skuId, rows, delta, requestId, caller, now, restock);
        return refusal != null ? refusal : changed(action, reason, before, caller, now);
    }

    /**
     * Records a caller's request id; returns the replayed outcome when it was used before, or a
     * conflict when it was used for something else, or null when this is its first use.
     */
    private StockChangeOutcome claimRequest(String requestId, SkuId skuId, String op, String fingerprint,
            SkuRows.Sku sku, Instant now) {
        int inserted = jdbc.update(sql.get("insertStockRequest"), requestId, skuId.value(), op, fingerprint,
                Timestamps.parameter(now, dialect));
        if (inserted == 1) {
            return null;
        }
        List<String> known = jdbc.query(sql.get("stockRequest"), (rs, i) -> rs.getString("fingerprint"), requestId);
        if (!known.isEmpty() && known.getFirst().equals(fingerprint)) {
            SkuStockView current = view(sku, buckets.read(skuId));
            return new StockChangeOutcome.Changed(current, current, true);
        }
        return new Refusal.IdempotencyConflict("request " + requestId);
    }

    /** Spreads a change of total over the buckets; null on success, a refusal when stock is short. */
    private StockChangeOutcome change(SkuId skuId, List<BucketRows.Row> rows, long delta, String requestId,
            Caller caller, Instant now, boolean restock) {
        if (delta == 0) {
            return null;
        }
        long available = rows.stream().mapToLong(BucketRows.Row::available).sum();
        if (delta < 0 && available < -delta) {
            return new Refusal.InsufficientStock(skuId, -delta, available);
        }
        long[] shares = delta > 0 ? BucketShares.even(delta, rows.size())
                : BucketShares.proportional(-delta, rows.stream().mapToLong(BucketRows.Row::available).toArray());
        StockEvents.Context context = JdbcStockLedger.context(caller, now);
        List<StockEvent> events = new ArrayList<>();
        for (BucketRows.Row row : rows) {
            long share = delta > 0 ? shares[row.bucket()] : -shares[row.bucket()];
            if (share == 0) {
                continue;
            }
            StockEvent event = restock ? StockEvents.restock(skuId, row.bucket(), share, requestId, context)
                    : StockEvents.adjust(skuId, row.bucket(), share, requestId, context);
            buckets.applyOrFail(skuId, row.bucket(), List.of(event));
            events.add(event);
        }
        journal.append(events);
        skus.touch(skuId, now);
        return null;
    }

    private StockChangeOutcome changed(String action, String reason, SkuStockView before, Caller caller, Instant now) {
        SkuStockView after = view(before.skuId()).orElseThrow();
        audit.record(caller.actor(), action, target(before.skuId()), reason, summary(before), summary(after),
                caller.traceId());
        return new StockChangeOutcome.Changed(before, after, false);
    }

    private SkuStockView view(SkuRows.Sku sku, List<BucketRows.Row> rows) {
        List<BucketView> views = rows.stream().map(BucketRows.Row::view).toList();
        return SkuStockView.of(sku.skuId(), sku.mode(), sku.modeReason(), sku.modeChangedBy(), sku.modeChangedAt(),
                sku.safetyStock(), views, sku.terms());
    }

    private static String target(SkuId skuId) {
        return "sku:" + skuId.value();
    }

    private static Map<String, Object> summary(SkuStockView view) {
        return Map.of("total", view.total(), "available", view.available(), "reserved", view.reserved(), "sold",
                view.sold(), "safetyStock", view.safetyStock());
    }
}
