package io.stockguard.ledger;

import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.platform.QueryPipeline;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.platform.TraceId;
import io.stockguard.reservation.Ownership;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/** The reads and writes of {@link JournalApplier}: reservation rows, waiting events, stamps, anomalies. */
final class AppliedRows {

    private final JdbcTemplate jdbc;
    private final SqlStatements sql;
    private final SqlDialect dialect;
    private final ReservationRows reservations;

    AppliedRows(JdbcTemplate jdbc, SqlStatements sql, SqlDialect dialect, ReservationRows reservations) {
        this.jdbc = jdbc;
        this.sql = sql;
        this.dialect = dialect;
        this.reservations = reservations;
    }

    /** Reads added to {@code reads} run, in order and in one round trip where the database allows, when it runs. */
    QueryPipeline pipeline() {
        return new QueryPipeline(jdbc, dialect);
    }

    /**
     * Locks these SKUs' rows until the transaction ends; the map is filled with the hot store's
     * ownership of each when {@code reads} runs.
     */
    Map<SkuId, Ownership> lockSkus(QueryPipeline reads, Collection<SkuId> skus) {
        Map<SkuId, Ownership> owners = new HashMap<>();
        if (!skus.isEmpty()) {
            reads.add(sql.get("hotOwners"), Map.of("skuIds", values(skus)), rs -> {
                owners.put(SkuId.of(rs.getString("sku_id")), Ownership.of(rs.getString("owner"),
                        rs.getLong("hot_epoch"), Timestamps.fromDatabase(rs, "owner_since", dialect)));
            });
        }
        return owners;
    }

    /** Locks these orders' reservation rows until the transaction ends; the map is filled when {@code reads} runs. */
    Map<OrderId, ReservationRows.Header> lockReservations(QueryPipeline reads, Collection<OrderId> orders) {
        Map<OrderId, ReservationRows.Header> headers = new HashMap<>();
        if (!orders.isEmpty()) {
            reads.add(sql.get("lockReservations"), Map.of("orderIds", ids(orders)), rs -> {
                ReservationRows.Header header = reservations.header(rs);
                headers.put(header.orderId(), header);
            });
        }
        return headers;
    }

    /** The SKUs these orders have lines on, as committed now (no lock taken). */
    Set<SkuId> skusOfOrders(Collection<OrderId> orders) {
        Set<SkuId> skus = new HashSet<>();
        if (!orders.isEmpty()) {
            QueryPipeline read = pipeline();
            read.add(sql.get("skusOfOrders"), Map.of("orderIds", ids(orders)), rs -> {
                skus.add(SkuId.of(rs.getString("sku_id")));
            });
            read.run();
        }
        return skus;
    }

    Map<OrderId, Map<SkuId, ReservedLine>> lines(QueryPipeline reads, Collection<OrderId> orders) {
        Map<OrderId, Map<SkuId, ReservedLine>> lines = new HashMap<>();
        if (!orders.isEmpty()) {
            reads.add(sql.get("linesOfOrders"), Map.of("orderIds", ids(orders)), rs -> {
                SkuId sku = SkuId.of(rs.getString("sku_id"));
                lines.computeIfAbsent(OrderId.of(rs.getString("order_id")), k -> new HashMap<>())
                        .put(sku, new ReservedLine(sku, rs.getInt("qty"), rs.getInt("bucket")));
            });
        }
        return lines;
    }

    /** Changes of these SKUs waiting for their predecessors in a bucket, in the hot store's order. */
    List<StockEvent> waitingForBucket(QueryPipeline reads, Collection<SkuId> skus) {
        List<StockEvent> waiting = new ArrayList<>();
        if (!skus.isEmpty()) {
            reads.add(sql.get("pendingOfSkus"), Map.of("skuIds", values(skus)), rs -> {
                waiting.add(pendingEvent(rs));
            });
        }
        return waiting;
    }

    /** Changes of these orders waiting for their order, each line's in the order they happened. */
    Map<OrderId, Map<SkuId, List<StockEvent>>> pending(QueryPipeline reads, Collection<OrderId> orders) {
        Map<OrderId, Map<SkuId, List<StockEvent>>> pending = new HashMap<>();
        if (!orders.isEmpty()) {
            reads.add(sql.get("pendingOfOrders"), Map.of("orderIds", ids(orders)), rs -> {
                StockEvent event = pendingEvent(rs);
                pending.computeIfAbsent(event.orderId(), k -> new HashMap<>())
                        .computeIfAbsent(event.skuId(), k -> new ArrayList<>()).add(event);
            });
        }
        return pending;
    }

    /** Order operations already in the journal, as "order|sku|op". */
    Set<String> appliedOrderOps(QueryPipeline reads, Collection<OrderId> orders) {
        Set<String> applied = new HashSet<>();
        if (!orders.isEmpty()) {
            reads.add(sql.get("appliedOrderOps"), Map.of("orderIds", ids(orders)), rs -> {
                applied.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
            });
        }
        return applied;
    }

    /** Event ids already applied or already waiting: handing them in again is a duplicate. */
    Set<String> known(QueryPipeline reads, List<StockEvent> events) {
        List<String> ids = events.stream().map(StockEvent::eventId).toList();
        Set<String> known = new HashSet<>();
        reads.add(sql.get("existingEventIds"), Map.of("eventIds", ids), rs -> {
            known.add(rs.getString(1));
        });
        reads.add(sql.get("pendingEventIds"), Map.of("eventIds", ids), rs -> {
            known.add(rs.getString(1));
        });
        return known;
    }

    Map<Stamp, String> stampOwners(QueryPipeline reads, List<StockEvent> events) {
        List<StockEvent> stamped = events.stream().filter(e -> e.epoch() != null).toList();
        Map<Stamp, String> owners = new HashMap<>();
        if (stamped.isEmpty()) {
            return owners;
        }
        Set<Stamp> wanted = new HashSet<>();
        stamped.forEach(e -> wanted.add(Stamp.of(e)));
        // PostgreSQL's statement takes the stamps as four arrays, one element per stamp; the generic
        // one, a list of each column's values.
        Map<String, Object> parameters = dialect == SqlDialect.POSTGRESQL ? Map.of(
                "stampSkus", new QueryPipeline.SqlArray("text", stamped.stream().map(e -> e.skuId().value()).toArray()),
                "stampBuckets", new QueryPipeline.SqlArray("int4", stamped.stream().map(StockEvent::bucket).toArray()),
                "stampEpochs", new QueryPipeline.SqlArray("int8", stamped.stream().map(StockEvent::epoch).toArray()),
                "stampSequences", new QueryPipeline.SqlArray("int8",
                        stamped.stream().map(StockEvent::sequence).toArray()))
                : Map.of(
                "skuIds", stamped.stream().map(e -> e.skuId().value()).distinct().toList(),
                "buckets", stamped.stream().map(StockEvent::bucket).distinct().toList(),
                "epochs", stamped.stream().map(StockEvent::epoch).distinct().toList(),
                "sequences", stamped.stream().map(StockEvent::sequence).distinct().toList());
        reads.add(sql.get("stampOwners"), parameters, rs -> {
            Stamp stamp = new Stamp(SkuId.of(rs.getString("sku_id")), rs.getInt("bucket"),
                    rs.getLong("epoch"), rs.getLong("bucket_seq"));
            if (wanted.contains(stamp)) {
                owners.put(stamp, rs.getString("event_id"));
            }
        });
        return owners;
    }

    void raiseStamps(List<Stamp> stamps) {
        jdbc.batchUpdate(sql.get("raiseAppliedStamp"), stamps, Math.max(1, stamps.size()), (ps, stamp) -> {
            ps.setLong(1, stamp.epoch());
            ps.setLong(2, stamp.sequence());
            ps.setString(3, stamp.skuId().value());
            ps.setInt(4, stamp.bucket());
            ps.setLong(5, stamp.epoch());
            ps.setLong(6, stamp.epoch());
            ps.setLong(7, stamp.sequence());
        });
    }

    void insertHeaders(List<ReservationRows.Header> headers) {
        if (!headers.isEmpty()) {
            reservations.insertAll(headers);
        }
    }

    void updateHeaders(List<ReservationRows.Header> headers) {
        int type = dialect == SqlDialect.POSTGRESQL ? Types.TIMESTAMP_WITH_TIMEZONE : Types.TIMESTAMP;
        jdbc.batchUpdate(sql.get("updateReservation"), headers, Math.max(1, headers.size()), (ps, header) -> {
            ps.setString(1, header.state().name());
            ps.setString(2, header.fingerprint());
            ps.setObject(3, Timestamps.toDatabase(header.expiresAt(), dialect), type);
            ps.setObject(4, Timestamps.toDatabase(header.confirmedAt(), dialect), type);
            ps.setObject(5, Timestamps.toDatabase(header.closedAt(), dialect), type);
            ps.setString(6, header.traceId());
            ps.setString(7, header.orderId().value());
        });
    }

    void insertLines(Map<OrderId, List<ReservedLine>> lines) {
        if (!lines.isEmpty()) {
            reservations.insertLines(new LinkedHashMap<>(lines));
        }
    }

    /**
     * Moves each named customer's count by the reservations, cancels and expiries the plan applied.
     * Counted by the customer of the order's row, for the reserve and its release alike: a reserve
     * applied over a tombstone (a row with no customer) is not counted, and then neither is its
     * release.
     */
    void countCustomers(ApplyPlan plan) {
        Map<CustomerHolds.Key, Long> deltas = new HashMap<>();
        for (StockEvent event : plan.applied()) {
            long sign = switch (event.op()) {
                case RESERVE -> 1;
                case CANCEL, EXPIRE -> -1;
                default -> 0;
            };
            CustomerId customer = sign == 0 ? null : plan.customerOf(event.orderId());
            if (customer != null) {
                deltas.merge(new CustomerHolds.Key(event.skuId(), customer), sign * event.qty(), Long::sum);
            }
        }
        reservations.holds().moveAll(deltas);
    }

    void insertPending(List<Waiting.Wait> waits) {
        int type = dialect == SqlDialect.POSTGRESQL ? Types.TIMESTAMP_WITH_TIMEZONE : Types.TIMESTAMP;
        jdbc.batchUpdate(sql.get("insertPending"), waits, Math.max(1, waits.size()), (ps, wait) -> {
            StockEvent e = wait.event();
            ps.setString(1, e.eventId());
            ps.setString(2, e.orderId() == null ? null : e.orderId().value());
            ps.setString(3, e.skuId().value());
            ps.setInt(4, e.bucket());
            ps.setString(5, e.op().name());
            ps.setLong(6, e.qty());
            ps.setLong(7, e.deltaAvailable());
            ps.setLong(8, e.deltaReserved());
            ps.setLong(9, e.deltaSold());
            ps.setString(10, e.traceId() == null ? null : e.traceId().value());
            ps.setString(11, e.actor());
            ps.setObject(12, Timestamps.toDatabase(e.occurredAt(), dialect), type);
            ps.setObject(13, e.epoch(), Types.BIGINT);
            ps.setObject(14, e.sequence(), Types.BIGINT);
            ps.setString(15, e.requestId());
            ps.setString(16, e.fingerprint());
            ps.setObject(17, Timestamps.toDatabase(e.expiresAt(), dialect), type);
            ps.setObject(18, e.hotAvailable(), Types.BIGINT);
            ps.setObject(19, e.hotJournaled(), Types.BIGINT);
            ps.setString(20, wait.reason().name());
            ps.setString(21, CustomerId.valueOf(e.customerId()));
        });
    }

    void deletePending(List<String> eventIds) {
        jdbc.batchUpdate(sql.get("deletePending"), eventIds, Math.max(1, eventIds.size()),
                (ps, id) -> ps.setString(1, id));
    }

    /**
     * Records the request ids of the hot store's restocks and adjustments as applied, as the
     * database path records its own: a retry after the hot store lost its record is a replay.
     */
    void insertStockRequests(List<StockEvent> applied) {
        Map<String, StockEvent> requests = new LinkedHashMap<>();
        for (StockEvent event : applied) {
            if ((event.op() == StockOp.RESTOCK || event.op() == StockOp.ADJUST) && event.requestId() != null
                    && event.fingerprint() != null) {
                requests.putIfAbsent(event.requestId(), event);
            }
        }
        for (StockEvent event : requests.values()) {
            jdbc.update(sql.get("insertStockRequest"), event.requestId(), event.skuId().value(), event.op().name(),
                    event.fingerprint(), Timestamps.parameter(event.occurredAt(), dialect));
        }
    }

    void insertAnomalies(List<Anomaly> anomalies) {
        jdbc.batchUpdate(sql.get("insertAnomaly"), anomalies, Math.max(1, anomalies.size()), (ps, a) -> {
            ps.setObject(1, Timestamps.toDatabase(a.at(), dialect));
            ps.setString(2, a.kind());
            ps.setString(3, a.skuId() == null ? null : a.skuId().value());
            ps.setObject(4, a.bucket(), Types.INTEGER);
            ps.setString(5, a.eventId());
            ps.setString(6, a.detail().length() > 1000 ? a.detail().substring(0, 1000) : a.detail());
        });
    }

    private StockEvent pendingEvent(ResultSet rs) throws SQLException {
        String trace = rs.getString("trace_id");
        String order = rs.getString("order_id");
        return new StockEvent(rs.getString("event_id"), SkuId.of(rs.getString("sku_id")), rs.getInt("bucket"),
                StockOp.valueOf(rs.getString("op")), order == null ? null : OrderId.of(order),
                rs.getString("request_id"), rs.getLong("qty"), rs.getLong("delta_available"),
                rs.getLong("delta_reserved"), rs.getLong("delta_sold"), trace == null ? null : new TraceId(trace),
                rs.getString("actor"), Timestamps.fromDatabase(rs, "occurred_at", dialect), nullableLong(rs, "epoch"),
                nullableLong(rs, "bucket_seq"), rs.getString("fingerprint"),
                Timestamps.fromDatabase(rs, "expires_at", dialect), nullableLong(rs, "hot_available"),
                nullableLong(rs, "hot_journaled"), CustomerId.ofNullable(rs.getString("customer_id")));
    }

    private static Long nullableLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }

    private static List<String> values(Collection<SkuId> skus) {
        return skus.stream().map(SkuId::value).toList();
    }

    private static List<String> ids(Collection<OrderId> orders) {
        return orders.stream().map(OrderId::value).toList();
    }
}
