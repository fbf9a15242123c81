package io.stockguard.ledger;

import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/** The {@code reservation} and {@code reservation_line} tables. */
final class ReservationRows {

    /**
     * A reservation row without its lines.
     *
     * @param extensions how many times the hold was extended; written only by {@link #extendHold}
     * @param customerId who the order is for (null: nobody named); fixed when the row is made
     */
    record Header(OrderId orderId, ReservationState state, String fingerprint, Instant createdAt, Instant expiresAt,
            Instant confirmedAt, Instant closedAt, String traceId, int extensions, CustomerId customerId) {

        /** A row as a new reservation (or tombstone) for no named customer starts it: never extended. */
        Header(OrderId orderId, ReservationState state, String fingerprint, Instant createdAt, Instant expiresAt,
                Instant confirmedAt, Instant closedAt, String traceId) {
            this(orderId, state, fingerprint, createdAt, expiresAt, confirmedAt, closedAt, traceId, 0, null);
        }

        /** The same row in another state, as of {@code at}: everything it was made with stays. */
        Header moved(ReservationState to, Instant confirmed, Instant closed) {
            return new Header(orderId, to, fingerprint, createdAt, expiresAt, confirmed, closed, traceId, extensions,
                    customerId);
        }

        /** The same row holding until {@code ends}, extended {@code count} times. */
        Header extended(Instant ends, int count) {
            return new Header(orderId, state, fingerprint, createdAt, ends, confirmedAt, closedAt, traceId, count,
                    customerId);
        }

        ReservationView view(List<ReservedLine> lines) {
            return new ReservationView(orderId, state, lines, createdAt, expiresAt, confirmedAt, closedAt, traceId,
                    extensions, customerId);
        }
    }

    /** The fingerprint of a tombstone: it matches no reserve request. */
    static final String TOMBSTONE = "";

    private final JdbcTemplate jdbc;
    private final NamedParameterJdbcTemplate named;
    private final SqlStatements sql;
    private final SqlDialect dialect;
    private final CustomerHolds holds;

    ReservationRows(JdbcTemplate jdbc, SqlStatements sql, SqlDialect dialect) {
        this.jdbc = jdbc;
        this.named = new NamedParameterJdbcTemplate(jdbc);
        this.sql = sql;
        this.dialect = dialect;
        this.holds = new CustomerHolds(jdbc, sql);
    }

    /** What the reservations of each named customer hold, per SKU. */
    CustomerHolds holds() {
        return holds;
    }

    /** Inserts the header unless the order exists; waits for a concurrent insert of the same order. */
    boolean insertIfAbsent(Header header) {
        return jdbc.update(sql.get("insertReservation"), header.orderId().value(), header.state().name(),
                header.fingerprint(), at(header.createdAt()), at(header.expiresAt()), at(header.confirmedAt()),
                at(header.closedAt()), Timestamps.varchar(header.traceId()),
                CustomerId.valueOf(header.customerId())) == 1;
    }

    /** Inserts new headers; a header whose order exists fails the whole statement. */
    void insertAll(List<Header> headers) {
        jdbc.batchUpdate(sql.get("insertNewReservation"), headers, headers.size(), (ps, header) -> {
            ps.setString(1, header.orderId().value());
            ps.setString(2, header.state().name());
            ps.setString(3, header.fingerprint());
            ps.setObject(4, Timestamps.toDatabase(header.createdAt(), dialect));
            ps.setObject(5, Timestamps.toDatabase(header.expiresAt(), dialect), timestampType());
            ps.setObject(6, Timestamps.toDatabase(header.confirmedAt(), dialect), timestampType());
            ps.setObject(7, Timestamps.toDatabase(header.closedAt(), dialect), timestampType());
            ps.setString(8, header.traceId());
            ps.setString(9, CustomerId.valueOf(header.customerId()));
        });
    }

    /** Which of these orders already have a reservation row (committed). */
    Set<OrderId> existing(Collection<OrderId> orderIds) {
        List<String> ids = orderIds.stream().map(OrderId::value).toList();
        return new HashSet<>(named.query(sql.get("existingOrders"), Map.of("orderIds", ids),
                (rs, i) -> OrderId.of(rs.getString(1))));
    }

    /** Lines of several orders in one batch. */
    void insertLines(Map<OrderId, List<ReservedLine>> linesByOrder) {
        List<Map.Entry<OrderId, ReservedLine>> rows = new ArrayList<>();
        linesByOrder.forEach((order, lines) -> lines.forEach(line -> rows.add(Map.entry(order, line))));
        jdbc.batchUpdate(sql.get("insertLine"), rows, rows.size(), (ps, row) -> {
            ps.setString(1, row.getKey().value());
            ps.setString(2, row.getValue().skuId().value());
            ps.setInt(3, row.getValue().qty());
            ps.setInt(4, row.getValue().bucket());
        });
    }

    private int timestampType() {
        return dialect == SqlDialect.POSTGRESQL ? Types.TIMESTAMP_WITH_TIMEZONE : Types.TIMESTAMP;
    }

    Optional<Header> find(OrderId orderId) {
        return jdbc.query(sql.get("reservation"), (rs, i) -> header(rs), orderId.value()).stream().findFirst();
    }

    Optional<Header> lock(OrderId orderId) {
        return jdbc.query(sql.get("lockReservation"), (rs, i) -> header(rs), orderId.value()).stream().findFirst();
    }

    /** The order's lines sorted by SKU: the lock order of every transaction. */
    List<ReservedLine> lines(OrderId orderId) {
        return jdbc.query(sql.get("lines"), (rs, i) -> new ReservedLine(SkuId.of(rs.getString("sku_id")),
                        rs.getInt("qty"), rs.getInt("bucket")), orderId.value())
                .stream().sorted(Comparator.comparing(ReservedLine::skuId)).toList();
    }

    void insertLines(OrderId orderId, List<ReservedLine> lines) {
        jdbc.batchUpdate(sql.get("insertLine"), lines, lines.size(), (ps, line) -> {
            ps.setString(1, orderId.value());
            ps.setString(2, line.skuId().value());
            ps.setInt(3, line.qty());
            ps.setInt(4, line.bucket());
        });
    }

    /** Moves the order from one state to another; false if it was no longer in {@code from}. */
    boolean transition(OrderId orderId, ReservationState from, ReservationState to, Instant confirmedAt,
            Instant closedAt) {
        return jdbc.update(sql.get("transition"), to.name(), at(confirmedAt), at(closedAt), orderId.value(),
                from.name()) == 1;
    }

    /** Sets a locked row's hold end and extension count: the caller decided the extension. */
    void extendHold(OrderId orderId, Instant holdEnds, int extensions) {
        jdbc.update(sql.get("extendHold"), at(holdEnds), extensions, orderId.value());
    }

    /** The SKUs of the order whose EXTEND is in the journal already. */
    Set<SkuId> extendedLines(OrderId orderId) {
        return new HashSet<>(jdbc.query(sql.get("extendedLines"), (rs, i) -> SkuId.of(rs.getString(1)),
                orderId.value()));
    }

    List<io.stockguard.reservation.StockLedger.Due> due(Instant now, io.stockguard.reservation.StockLedger.Due after,
            int limit) {
        Instant from = after == null ? Instant.EPOCH : after.expiresAt();
        String fromOrder = after == null ? "" : after.orderId().value();
        return jdbc.query(sql.get("due"), (rs, i) -> new io.stockguard.reservation.StockLedger.Due(
                Timestamps.fromDatabase(rs, "expires_at", dialect), OrderId.of(rs.getString("order_id"))), at(now),
                at(from), at(from), fromOrder, limit);
    }

    private Object at(Instant instant) {
        return Timestamps.parameter(instant, dialect);
    }

    Header header(ResultSet rs) throws SQLException {
        return new Header(OrderId.of(rs.getString("order_id")), ReservationState.valueOf(rs.getString("state")),
                rs.getString("fingerprint"), Timestamps.fromDatabase(rs, "created_at", dialect),
                Timestamps.fromDatabase(rs, "expires_at", dialect), Timestamps.fromDatabase(rs, "confirmed_at", dialect),
                Timestamps.fromDatabase(rs, "closed_at", dialect), rs.getString("trace_id"), rs.getInt("extensions"),
                CustomerId.ofNullable(rs.getString("customer_id")));
    }
}
