package io.stockguard.ledger;

import io.stockguard.journal.Journal;
import io.stockguard.platform.Caller;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.reservation.SkuCatalogue;
import io.stockguard.reservation.SkuTerms;
import io.stockguard.reservation.StockCommand;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLimits;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The bulk catalogue on the ledger tables. A batch of new SKUs is three batched inserts (SKUs,
 * buckets, journal events) in one transaction, where creating them one by one would be a
 * transaction and a dozen statements each: an import of 100,000 SKUs takes seconds, not minutes.
 */
final class JdbcSkuCatalogue implements SkuCatalogue {

    private final TransactionTemplate transactions;
    private final JdbcTemplate jdbc;
    private final NamedParameterJdbcTemplate named;
    private final SqlStatements sql;
    private final SqlDialect dialect;
    private final BucketRows buckets;
    private final Journal journal;
    private final Clock clock;

    JdbcSkuCatalogue(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements sql, SqlDialect dialect,
            Journal journal, Clock clock) {
        this.transactions = transactions;
        this.jdbc = jdbc;
        this.named = new NamedParameterJdbcTemplate(jdbc);
        this.sql = sql;
        this.dialect = dialect;
        this.buckets = new BucketRows(jdbc, sql);
        this.journal = journal;
        this.clock = clock;
    }

    @Override
    public Batch createAbsent(List<StockCommand.Upsert> skus, Caller caller) {
        if (skus.isEmpty()) {
            return new Batch(Set.of(), Map.of());
        }
        return transactions.execute(status -> {
            List<String> ids = skus.stream().map(upsert -> upsert.skuId().value()).toList();
            Map<SkuId, Entry> existing = new HashMap<>();
            named.query(sql.get("catalogueOfSkus"), Map.of("skuIds", ids), (ResultSet rs) -> {
                Entry entry = entry(rs);
                existing.put(entry.skuId(), entry);
            });
            List<StockCommand.Upsert> absent = skus.stream().filter(upsert -> !existing.containsKey(upsert.skuId()))
                    .toList();
            insert(absent, caller);
            Set<SkuId> created = new LinkedHashSet<>();
            absent.forEach(upsert -> created.add(upsert.skuId()));
            return new Batch(created, existing);
        });
    }

    private void insert(List<StockCommand.Upsert> absent, Caller caller) {
        if (absent.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        Object at = Timestamps.toDatabase(now, dialect);
        jdbc.batchUpdate(sql.get("insertNewSku"), absent, absent.size(), (ps, upsert) -> {
            ps.setString(1, upsert.skuId().value());
            ps.setInt(2, bucketCount(upsert));
            ps.setLong(3, upsert.safetyStock() == null ? 0 : upsert.safetyStock());
            Integer limit = upsert.limitPerCustomer();
            ps.setObject(4, limit == null || limit == 0 ? null : limit, Types.INTEGER);
            ps.setObject(5, upsert.lowStockThreshold(), Types.BIGINT);
            ps.setObject(6, at);
            ps.setObject(7, at);
        });
        Map<SkuId, Integer> bucketCounts = new LinkedHashMap<>();
        Map<SkuId, Long> totals = new HashMap<>();
        for (StockCommand.Upsert upsert : absent) {
            bucketCounts.put(upsert.skuId(), bucketCount(upsert));
            totals.put(upsert.skuId(), upsert.total());
        }
        journal.append(buckets.insertNew(bucketCounts, totals, JdbcStockLedger.context(caller, now)));
    }

    @Override
    public void refreshStatistics() {
        // MySQL answers ANALYZE TABLE with a result set (one row per table); PostgreSQL with none.
        jdbc.execute(sql.get("analyzeCatalogue"));
    }

    @Override
    public List<Entry> page(SkuId after, int limit) {
        return jdbc.query(sql.get("cataloguePage"), (rs, i) -> entry(rs), after == null ? "" : after.value(), limit);
    }

    private static int bucketCount(StockCommand.Upsert upsert) {
        return upsert.bucketCount() == null ? StockLimits.BUCKETS_DEFAULT : upsert.bucketCount();
    }

    private static Entry entry(ResultSet rs) throws SQLException {
        int limit = rs.getInt("limit_per_customer");
        Integer limitPerCustomer = rs.wasNull() ? null : limit;
        long threshold = rs.getLong("low_stock_threshold");
        Long lowStockThreshold = rs.wasNull() ? null : threshold;
        return new Entry(SkuId.of(rs.getString("sku_id")), rs.getLong("total"), rs.getInt("bucket_count"),
                rs.getLong("safety_stock"), new SkuTerms(limitPerCustomer, lowStockThreshold),
                !"DATABASE".equals(rs.getString("owner")));
    }
}
