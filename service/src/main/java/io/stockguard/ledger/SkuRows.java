package io.stockguard.ledger;

import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.reservation.SkuTerms;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.JdbcTemplate;

/** The {@code sku} table, with a cache of bucket counts for the hot path. */
final class SkuRows {

    record Sku(SkuId skuId, int bucketCount, long safetyStock, SkuMode mode, int throttleRate, String modeReason,
            String modeChangedBy, Instant modeChangedAt, SkuTerms terms) {
    }

    private final JdbcTemplate jdbc;
    private final SqlStatements sql;
    private final SqlDialect dialect;
    private final int bucketCacheSize;
    /**
     * A SKU's bucket count never changes after creation, so a cached count is never stale. Only
     * known SKUs are cached: a SKU created by another instance is found on the next miss.
     */
    private final ConcurrentHashMap<SkuId, Integer> bucketCounts = new ConcurrentHashMap<>();

    SkuRows(JdbcTemplate jdbc, SqlStatements sql, SqlDialect dialect, int bucketCacheSize) {
        this.jdbc = jdbc;
        this.sql = sql;
        this.dialect = dialect;
        this.bucketCacheSize = bucketCacheSize;
    }

    OptionalInt bucketCount(SkuId skuId) {
        Integer cached = bucketCounts.get(skuId);
        if (cached != null) {
            return OptionalInt.of(cached);
        }
        List<Integer> found = jdbc.queryForList(sql.get("bucketCount"), Integer.class, skuId.value());
        if (found.isEmpty()) {
            return OptionalInt.empty();
        }
        if (bucketCounts.size() >= bucketCacheSize) {
            bucketCounts.clear();
        }
        bucketCounts.put(skuId, found.getFirst());
        return OptionalInt.of(found.getFirst());
    }

    Optional<Sku> find(SkuId skuId) {
        return jdbc.query(sql.get("sku"), (rs, i) -> sku(rs), skuId.value()).stream().findFirst();
    }

    /** The SKU and its buckets as they stand, read in one statement (a stock read: nothing is locked). */
    Optional<Stock> findWithBuckets(SkuId skuId) {
        return jdbc.query(sql.get("skuStock"), rs -> {
            Sku sku = null;
            List<BucketRows.Row> buckets = new java.util.ArrayList<>();
            while (rs.next()) {
                if (sku == null) {
                    sku = sku(rs);
                }
                rs.getInt("bucket");
                if (!rs.wasNull()) {
                    buckets.add(BucketRows.row(rs, "bucket_mode"));
                }
            }
            return sku == null ? Optional.empty() : Optional.of(new Stock(sku, List.copyOf(buckets)));
        }, skuId.value());
    }

    /** A SKU's row with its buckets' rows. */
    record Stock(Sku sku, List<BucketRows.Row> buckets) {
    }

    Optional<Sku> lock(SkuId skuId) {
        return jdbc.query(sql.get("lockSku"), (rs, i) -> sku(rs), skuId.value()).stream().findFirst();
    }

    boolean insertIfAbsent(SkuId skuId, int bucketCount, long safetyStock, Instant now) {
        Object at = Timestamps.parameter(now, dialect);
        return jdbc.update(sql.get("insertSku"), skuId.value(), bucketCount, safetyStock, at, at) == 1;
    }

    void setSafetyStock(SkuId skuId, long safetyStock, Instant now) {
        jdbc.update(sql.get("setSafetyStock"), safetyStock, Timestamps.parameter(now, dialect), skuId.value());
    }

    /** Sets the limit (0 takes it away); null leaves it. The same for the threshold. */
    void setTerms(SkuId skuId, Integer limitPerCustomer, Long lowStockThreshold, Instant now) {
        Object at = Timestamps.parameter(now, dialect);
        if (limitPerCustomer != null) {
            jdbc.update(sql.get("setLimitPerCustomer"), limitPerCustomer == 0 ? null : limitPerCustomer, at,
                    skuId.value());
        }
        if (lowStockThreshold != null) {
            jdbc.update(sql.get("setLowStockThreshold"), lowStockThreshold, at, skuId.value());
        }
    }

    /** Units one customer may hold and have bought of the SKU (0: no limit); empty for an unknown SKU. */
    OptionalInt limitPerCustomer(SkuId skuId) {
        List<Integer> found = jdbc.query(sql.get("limitPerCustomer"), (rs, i) -> rs.getInt(1), skuId.value());
        return found.isEmpty() ? OptionalInt.empty() : OptionalInt.of(found.getFirst());
    }

    void touch(SkuId skuId, Instant now) {
        jdbc.update(sql.get("touchSku"), Timestamps.parameter(now, dialect), skuId.value());
    }

    void setMode(SkuId skuId, SkuMode mode, int throttleRatePerSecond, String reason, String actor, Instant now) {
        Object at = Timestamps.parameter(now, dialect);
        jdbc.update(sql.get("setSkuMode"), mode.name(), throttleRatePerSecond, Timestamps.varchar(reason),
                Timestamps.varchar(actor), at, at, skuId.value());
    }

    private Sku sku(ResultSet rs) throws SQLException {
        return new Sku(SkuId.of(rs.getString("sku_id")), rs.getInt("bucket_count"), rs.getLong("safety_stock"),
                SkuMode.valueOf(rs.getString("mode")), rs.getInt("throttle_rate"), rs.getString("mode_reason"),
                rs.getString("mode_changed_by"),
                Timestamps.fromDatabase(rs, "mode_changed_at", dialect),
                new SkuTerms(nullableInt(rs, "limit_per_customer"), nullableLong(rs, "low_stock_threshold")));
    }

    private static Integer nullableInt(ResultSet rs, String column) throws SQLException {
        int value = rs.getInt(column);
        return rs.wasNull() ? null : value;
    }

    private static Long nullableLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }
}
