package io.stockguard.console.jdbc;

import io.stockguard.console.ConsoleQueries;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

@Component
class JdbcConsoleQueries implements ConsoleQueries {

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final SqlStatements sql;

    JdbcConsoleQueries(JdbcTemplate jdbc, SqlDialect dialect) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.sql = SqlStatements.load("console", dialect);
    }

    @Override
    public List<SkuRow> skus(String filter, boolean soldOutOnly, int limit) {
        return jdbc.query(sql.get("skus"), (rs, row) -> new SkuRow(rs.getString("sku_id"),
                rs.getLong("available") + rs.getLong("reserved") + rs.getLong("sold"), rs.getLong("available"),
                rs.getLong("reserved"), rs.getLong("sold"), rs.getString("mode"), rs.getString("mode_reason"),
                rs.getString("mode_changed_by"), Timestamps.fromDatabase(rs, "mode_changed_at", dialect),
                rs.getInt("bucket_count")), likePattern(filter), soldOutOnly ? 1 : 0, limit);
    }

    @Override
    public long skuCount() {
        Long count = jdbc.queryForObject(sql.get("skuCount"), Long.class);
        return count == null ? 0 : count;
    }

    @Override
    public Optional<ReservationRow> reservation(OrderId orderId) {
        List<LineRow> lines = jdbc.query(sql.get("lines"), (rs, row) -> new LineRow(rs.getString("sku_id"),
                rs.getInt("qty"), rs.getInt("bucket")), orderId.value());
        return jdbc.query(sql.get("reservation"), (rs, row) -> new ReservationRow(rs.getString("order_id"),
                rs.getString("state"), rs.getString("fingerprint"), Timestamps.fromDatabase(rs, "created_at", dialect),
                Timestamps.fromDatabase(rs, "expires_at", dialect), Timestamps.fromDatabase(rs, "confirmed_at", dialect),
                Timestamps.fromDatabase(rs, "closed_at", dialect), rs.getString("trace_id"), rs.getInt("extensions"),
                lines), orderId.value())
                .stream().findFirst();
    }

    @Override
    public List<PendingRow> pending(OrderId orderId, int limit) {
        return jdbc.query(sql.get("pending"), (rs, row) -> new PendingRow(rs.getString("event_id"),
                rs.getString("sku_id"), rs.getInt("bucket"), rs.getString("op"), rs.getLong("qty"),
                rs.getString("waiting_for"), Timestamps.fromDatabase(rs, "occurred_at", dialect),
                rs.getString("trace_id"), rs.getObject("epoch", Long.class), rs.getObject("bucket_seq", Long.class)),
                orderId.value(), limit);
    }

    @Override
    public List<AnomalyRow> anomalies(SkuId skuId, int limit) {
        return jdbc.query(sql.get("anomalies"), (rs, row) -> new AnomalyRow(rs.getLong("id"),
                Timestamps.fromDatabase(rs, "at", dialect), rs.getString("kind"), rs.getObject("bucket", Integer.class),
                rs.getString("event_id"), rs.getString("detail"), Timestamps.fromDatabase(rs, "resolved_at", dialect)),
                skuId.value(), limit);
    }

    /** A contains-pattern for LIKE … ESCAPE '!': the filter's own wildcards match only themselves. */
    static String likePattern(String filter) {
        if (filter == null) {
            return "%";
        }
        String escaped = filter.replace("!", "!!").replace("%", "!%").replace("_", "!_");
        return "%" + escaped + "%";
    }
}
