package io.stockguard.reservation.jdbc;

import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Run first inside every transaction of the database path while Redis is failing: takes the SKUs
 * from the hot store. A sale committed here is either seen by the next rebuild of the SKU or
 * followed by another, because the rebuild reads under an update lock of the same row.
 */
final class HotStoreClaim {

    private final JdbcTemplate jdbc;
    private final SqlStatements sql;
    private final SqlDialect dialect;
    private final Clock clock;

    /**
     * True with the synchronous journal: the claim itself takes the SKU over (the database fences
     * the hot store's later sales). False with Kafka: the SKU must have been taken over before,
     * with the journal drained (see the Redis ledger's takeover gate); the claim only checks that
     * it still is.
     */
    private final boolean takesOver;

    HotStoreClaim(JdbcTemplate jdbc, SqlStatements sql, SqlDialect dialect, Clock clock, boolean takesOver) {
        this.jdbc = jdbc;
        this.sql = sql;
        this.dialect = dialect;
        this.clock = clock;
        this.takesOver = takesOver;
    }

    /**
     * Marks each SKU invalid for the hot store and holds a share lock on its row until the
     * transaction ends. A SKU rebuilt between the two steps is a lost race: the transaction is
     * retried, and then marks it invalid again.
     */
    void claim(Collection<SkuId> skus) {
        for (SkuId sku : new TreeSet<>(skus)) {
            if (takesOver) {
                jdbc.update(sql.get("claimFromHotStore"), Timestamps.parameter(clock.instant(), dialect), sku.value());
            }
            List<Boolean> valid = jdbc.queryForList(sql.get("shareLockHotValid"), Boolean.class, sku.value());
            if (!valid.isEmpty() && Boolean.TRUE.equals(valid.getFirst())) {
                throw new ConcurrencyFailureException("SKU " + sku + " was rebuilt into the hot store meanwhile");
            }
        }
    }
}
