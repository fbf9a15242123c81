package io.stockguard.journal.jdbc;

import io.stockguard.journal.Journal;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.platform.TraceId;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/** The journal as the {@code stock_event} table, written in the caller's transaction. */
@Component
class JdbcJournal implements Journal {

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final SqlStatements sql;
    private final RowMapper<StockEvent> eventMapper;

    JdbcJournal(JdbcTemplate jdbc, SqlDialect dialect) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.sql = SqlStatements.load("journal", dialect);
        this.eventMapper = this::event;
    }

    @Override
    @Transactional(propagation = Propagation.MANDATORY)
    public void append(List<StockEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        jdbc.batchUpdate(sql.get("append"), events, events.size(), (ps, event) -> {
            ps.setString(1, event.eventId());
            ps.setString(2, event.skuId().value());
            ps.setInt(3, event.bucket());
            ps.setString(4, event.op().name());
            ps.setString(5, event.orderId() == null ? null : event.orderId().value());
            ps.setString(6, event.requestId());
            ps.setLong(7, event.qty());
            ps.setLong(8, event.deltaAvailable());
            ps.setLong(9, event.deltaReserved());
            ps.setLong(10, event.deltaSold());
            ps.setString(11, event.traceId() == null ? null : event.traceId().value());
            ps.setString(12, event.actor());
            ps.setObject(13, Timestamps.toDatabase(event.occurredAt(), dialect));
            ps.setObject(14, event.epoch(), Types.BIGINT);
            ps.setObject(15, event.sequence(), Types.BIGINT);
            ps.setString(16, event.fingerprint());
            ps.setObject(17, Timestamps.toDatabase(event.expiresAt(), dialect),
                    dialect == SqlDialect.POSTGRESQL ? Types.TIMESTAMP_WITH_TIMEZONE : Types.TIMESTAMP);
            ps.setString(18, CustomerId.valueOf(event.customerId()));
        });
    }

    @Override
    public List<StockEvent> forOrder(OrderId orderId, int limit) {
        return jdbc.query(sql.get("forOrder"), eventMapper, orderId.value(), limit);
    }

    @Override
    public List<StockEvent> tail(SkuId skuId, int limit) {
        return jdbc.query(sql.get("tail"), eventMapper, skuId.value(), limit);
    }

    @Override
    public Map<Integer, BucketSums> sums(SkuId skuId) {
        Map<Integer, BucketSums> sums = new HashMap<>();
        jdbc.query(sql.get("sums"), rs -> {
            sums.put(rs.getInt("bucket"), new BucketSums(rs.getLong("available"), rs.getLong("reserved"),
                    rs.getLong("sold"), rs.getLong("events")));
        }, skuId.value());
        return sums;
    }

    private StockEvent event(ResultSet rs, int row) throws SQLException {
        String orderId = rs.getString("order_id");
        String traceId = rs.getString("trace_id");
        return new StockEvent(rs.getString("event_id"), SkuId.of(rs.getString("sku_id")), rs.getInt("bucket"),
                StockOp.valueOf(rs.getString("op")), orderId == null ? null : OrderId.of(orderId),
                rs.getString("request_id"), rs.getLong("qty"), rs.getLong("delta_available"),
                rs.getLong("delta_reserved"), rs.getLong("delta_sold"),
                traceId == null ? null : new TraceId(traceId), rs.getString("actor"),
                Timestamps.fromDatabase(rs, "occurred_at", dialect), nullableLong(rs, "epoch"),
                nullableLong(rs, "bucket_seq"), rs.getString("fingerprint"),
                Timestamps.fromDatabase(rs, "expires_at", dialect), null, null,
                CustomerId.ofNullable(rs.getString("customer_id")));
    }

    private static Long nullableLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }
}
