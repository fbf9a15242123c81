package io.stockguard.ledger;

import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockEvents;
import io.stockguard.platform.QueryPipeline;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reservation.BucketView;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The {@code stock_bucket} table. Counters only ever move by the deltas of journal events, so a
 * bucket's counters are the sums of its events by construction.
 */
final class BucketRows {

    /** A bucket as read (and possibly locked) inside a transaction. */
    record Row(int bucket, long available, long reserved, long sold, SkuMode mode, long appliedSum) {
        BucketView view() {
            return new BucketView(bucket, available, reserved, sold);
        }
    }

    private final JdbcTemplate jdbc;
    private final NamedParameterJdbcTemplate named;
    private final SqlStatements sql;

    BucketRows(JdbcTemplate jdbc, SqlStatements sql) {
        this.jdbc = jdbc;
        this.named = new NamedParameterJdbcTemplate(jdbc);
        this.sql = sql;
    }

    /**
     * Applies the net deltas of events on one bucket if no counter goes negative and, when
     * {@code selling}, the SKU is not frozen. Returns false, changing nothing, otherwise.
     */
    boolean apply(SkuId skuId, int bucket, List<StockEvent> events, boolean selling) {
        long available = 0;
        long reserved = 0;
        long sold = 0;
        for (StockEvent event : events) {
            if (!event.skuId().equals(skuId) || event.bucket() != bucket) {
                throw new IllegalArgumentException("event " + event.eventId() + " is not for " + skuId + "/" + bucket);
            }
            available += event.deltaAvailable();
            reserved += event.deltaReserved();
            sold += event.deltaSold();
        }
        int updated = jdbc.update(sql.get(selling ? "applySelling" : "apply"), available, reserved, sold, available,
                skuId.value(), bucket, available, reserved, sold);
        return updated == 1;
    }

    /**
     * Applies events that must succeed because the caller holds the locks and has checked the
     * counters; a refusal here means the ledger's own bookkeeping is wrong.
     */
    void applyOrFail(SkuId skuId, int bucket, List<StockEvent> events) {
        if (!apply(skuId, bucket, events, false)) {
            throw refused(skuId, bucket);
        }
    }

    /** The net change of one bucket's counters. */
    record NetChange(SkuId skuId, int bucket, long available, long reserved, long sold) {
    }

    /**
     * Applies net changes already checked under the caller's lock (see {@link #applyOrFail}), in
     * one batch. A driver that cannot report per-statement counts (SUCCESS_NO_INFO) is trusted:
     * the rows are locked and the counters were read under that lock.
     */
    void applyNetOrFail(List<NetChange> changes) {
        if (changes.isEmpty()) {
            return;
        }
        int[][] counts = jdbc.batchUpdate(sql.get("apply"), changes, changes.size(), (ps, change) -> {
            ps.setLong(1, change.available());
            ps.setLong(2, change.reserved());
            ps.setLong(3, change.sold());
            ps.setLong(4, change.available());
            ps.setString(5, change.skuId().value());
            ps.setInt(6, change.bucket());
            ps.setLong(7, change.available());
            ps.setLong(8, change.reserved());
            ps.setLong(9, change.sold());
        });
        int i = 0;
        for (int[] batch : counts) {
            for (int count : batch) {
                NetChange change = changes.get(i++);
                if (count != 1 && count != java.sql.Statement.SUCCESS_NO_INFO) {
                    throw refused(change.skuId(), change.bucket());
                }
            }
        }
    }

    static LedgerInvariantViolation refused(SkuId skuId, int bucket) {
        return new LedgerInvariantViolation("bucket " + skuId + "/" + bucket
                + " refused a change its lock holder had checked: counters would go negative");
    }

    /** What a SKU holds as last committed, read without a lock. */
    record Snapshot(long available, SkuMode mode) {
    }

    /**
     * The SKUs' committed stock and which of the orders were stored, as one statement saw them.
     *
     * @param skus   each known SKU's stock; unknown SKUs are absent
     * @param stored the orders that were stored
     */
    record SoldOutSnapshot(Map<SkuId, Snapshot> skus, Set<OrderId> stored) {
    }

    /**
     * Reads the SKUs' stock and the orders' presence in one statement, without locking; run outside a
     * transaction, it is one round trip.
     */
    SoldOutSnapshot soldOutSnapshot(Collection<SkuId> skuIds, Collection<OrderId> orderIds) {
        Map<SkuId, Snapshot> snapshots = new TreeMap<>();
        Set<OrderId> stored = new HashSet<>();
        Map<String, Object> parameters = Map.of("skuIds", skuIds.stream().map(SkuId::value).toList(),
                "orderIds", orderIds.stream().map(OrderId::value).toList());
        named.query(sql.get("soldOutSnapshot"), parameters, (java.sql.ResultSet rs) -> {
            if ("SKU".equals(rs.getString("kind"))) {
                snapshots.put(SkuId.of(rs.getString("id")),
                        new Snapshot(rs.getLong("available"), SkuMode.valueOf(rs.getString("mode"))));
            } else {
                stored.add(OrderId.of(rs.getString("id")));
            }
        });
        return new SoldOutSnapshot(snapshots, stored);
    }

    /** Locks every bucket of the given SKUs in (SKU, bucket) order; SKUs without buckets are absent. */
    Map<SkuId, List<Row>> lockAll(Collection<SkuId> skuIds) {
        QueryPipeline reads = QueryPipeline.oneByOne(jdbc);
        Map<SkuId, List<Row>> rows = lockAll(reads, skuIds);
        reads.run();
        return rows;
    }

    /** {@link #lockAll(Collection)} as one of a pipeline's reads: the map is filled when it runs. */
    Map<SkuId, List<Row>> lockAll(QueryPipeline reads, Collection<SkuId> skuIds) {
        Map<SkuId, List<Row>> rows = new TreeMap<>();
        List<String> ids = skuIds.stream().map(SkuId::value).toList();
        reads.add(sql.get("lockBucketsOfSkus"), Map.of("skuIds", ids), rs -> {
            rows.computeIfAbsent(SkuId.of(rs.getString("sku_id")), k -> new ArrayList<>()).add(row(rs));
        });
        return rows;
    }

    List<Row> lock(SkuId skuId) {
        return jdbc.query(sql.get("lockBuckets"), (rs, i) -> row(rs), skuId.value());
    }

    List<Row> read(SkuId skuId) {
        return jdbc.query(sql.get("buckets"), (rs, i) -> row(rs), skuId.value());
    }

    /**
     * The buckets of new SKUs, in one batch: each SKU's total spread evenly, each bucket's applied
     * sum equal to its stock. Returns the ADJUST event of every bucket that got stock, for the
     * caller to journal in the same transaction, so the counters equal the journal's sums from the
     * first moment (the one place a new SKU's rows are made, for a single SKU and an import alike).
     */
    List<StockEvent> insertNew(Map<SkuId, Integer> bucketCounts, Map<SkuId, Long> totals,
            StockEvents.Context context) {
        List<Object[]> rows = new ArrayList<>();
        List<StockEvent> events = new ArrayList<>();
        bucketCounts.forEach((sku, count) -> {
            long[] shares = BucketShares.even(totals.get(sku), count);
            for (int bucket = 0; bucket < count; bucket++) {
                rows.add(new Object[] {sku.value(), bucket, shares[bucket], shares[bucket]});
                if (shares[bucket] > 0) {
                    events.add(StockEvents.adjust(sku, bucket, shares[bucket], null, context));
                }
            }
        });
        jdbc.batchUpdate(sql.get("insertBucket"), rows);
        return events;
    }

    void setMode(SkuId skuId, SkuMode mode) {
        jdbc.update(sql.get("setBucketsMode"), mode.name(), skuId.value());
    }

    private static Row row(java.sql.ResultSet rs) throws java.sql.SQLException {
        return row(rs, "mode");
    }

    /** A bucket's row from a result whose bucket mode is in column {@code modeColumn} (a join with the SKU's). */
    static Row row(java.sql.ResultSet rs, String modeColumn) throws java.sql.SQLException {
        Row row = new Row(rs.getInt("bucket"), rs.getLong("available"), rs.getLong("reserved"), rs.getLong("sold"),
                SkuMode.valueOf(rs.getString(modeColumn)), rs.getLong("applied_sum"));
        if (row.available() < 0 || row.reserved() < 0 || row.sold() < 0) {
            throw new LedgerInvariantViolation("bucket " + row.bucket() + " read back a negative counter: " + row);
        }
        return row;
    }
}
