package io.stockguard.ledger;

import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The rows a committed batch of reservations writes: each changed bucket's counters, the orders
 * and their lines. On PostgreSQL one statement writes them all (a data-modifying {@code WITH} over
 * arrays, one round trip and one plan however many requests the batch holds); MySQL and MariaDB
 * have no data-modifying {@code WITH}, and get the three batched statements.
 *
 * <p>Why: the buckets stay locked from the batch's first read to its commit, and every statement
 * in between is a round trip. Two fewer per batch did not move the bench's figures on a two-core
 * host beyond the spread between its runs (a batch there waits mostly for its commit's WAL flush
 * and for the CPU), so this is the cheaper form, not the cure, of a batch's cost.
 */
final class BatchWrites {

    /** Bound on the rows one statement takes; a batch is bounded far below it. */
    private static final int ROWS_MAX = 10_000;

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final String oneStatement;
    private final BucketRows buckets;
    private final ReservationRows reservations;

    BatchWrites(JdbcTemplate jdbc, SqlStatements sql, SqlDialect dialect, BucketRows buckets,
            ReservationRows reservations) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.oneStatement = dialect == SqlDialect.POSTGRESQL ? sql.get("writeBatch") : null;
        this.buckets = buckets;
        this.reservations = reservations;
    }

    /**
     * Writes the batch's rows in the caller's transaction. The changes were checked under the
     * buckets' locks; a bucket the statement could not change (its counters would go negative) is
     * a broken invariant and fails the batch, as {@link BucketRows#applyNetOrFail} does.
     */
    void write(List<BucketRows.NetChange> changes, List<ReservationRows.Header> headers,
            Map<OrderId, List<ReservedLine>> lines) {
        if (dialect != SqlDialect.POSTGRESQL) {
            buckets.applyNetOrFail(changes);
            reservations.insertAll(headers);
            reservations.insertLines(lines);
            return;
        }
        List<Map.Entry<OrderId, ReservedLine>> lineRows = new ArrayList<>();
        lines.forEach((order, orderLines) -> orderLines.forEach(line -> lineRows.add(Map.entry(order, line))));
        if (changes.size() > ROWS_MAX || headers.size() > ROWS_MAX || lineRows.size() > ROWS_MAX) {
            throw new IllegalArgumentException("a batch of " + headers.size() + " orders is past the bound of "
                    + ROWS_MAX + " rows per statement");
        }
        Set<String> changed = jdbc.execute((Connection connection) -> {
            try (PreparedStatement statement = connection.prepareStatement(oneStatement)) {
                int p = 1;
                statement.setArray(p++, text(connection, changes.stream().map(c -> c.skuId().value())));
                statement.setArray(p++, connection.createArrayOf("int4",
                        changes.stream().map(BucketRows.NetChange::bucket).toArray()));
                statement.setArray(p++, connection.createArrayOf("int8",
                        changes.stream().map(BucketRows.NetChange::available).toArray()));
                statement.setArray(p++, connection.createArrayOf("int8",
                        changes.stream().map(BucketRows.NetChange::reserved).toArray()));
                statement.setArray(p++, connection.createArrayOf("int8",
                        changes.stream().map(BucketRows.NetChange::sold).toArray()));
                statement.setArray(p++, text(connection, headers.stream().map(h -> h.orderId().value())));
                statement.setArray(p++, text(connection, headers.stream().map(h -> h.state().name())));
                statement.setArray(p++, text(connection, headers.stream().map(ReservationRows.Header::fingerprint)));
                statement.setArray(p++, text(connection, headers.stream().map(h -> instant(h.createdAt()))));
                statement.setArray(p++, text(connection, headers.stream().map(h -> instant(h.expiresAt()))));
                statement.setArray(p++, text(connection, headers.stream().map(h -> instant(h.confirmedAt()))));
                statement.setArray(p++, text(connection, headers.stream().map(h -> instant(h.closedAt()))));
                statement.setArray(p++, text(connection, headers.stream().map(ReservationRows.Header::traceId)));
                statement.setArray(p++, text(connection, headers.stream().map(h -> CustomerId.valueOf(h.customerId()))));
                statement.setArray(p++, text(connection, lineRows.stream().map(row -> row.getKey().value())));
                statement.setArray(p++, text(connection, lineRows.stream().map(row -> row.getValue().skuId().value())));
                statement.setArray(p++, connection.createArrayOf("int4",
                        lineRows.stream().map(row -> row.getValue().qty()).toArray()));
                statement.setArray(p, connection.createArrayOf("int4",
                        lineRows.stream().map(row -> row.getValue().bucket()).toArray()));
                Set<String> updated = new HashSet<>();
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        updated.add(key(SkuId.of(rows.getString(1)), rows.getInt(2)));
                    }
                }
                return updated;
            }
        });
        for (BucketRows.NetChange change : changes) {
            if (!changed.contains(key(change.skuId(), change.bucket()))) {
                throw BucketRows.refused(change.skuId(), change.bucket());
            }
        }
    }

    private static Array text(Connection connection, java.util.stream.Stream<String> values) throws SQLException {
        return connection.createArrayOf("text", values.toArray());
    }

    /** An instant as PostgreSQL reads a TIMESTAMPTZ literal: ISO-8601 in UTC, exact to the nanosecond given. */
    private static String instant(Instant at) {
        return at == null ? null : at.toString();
    }

    private static String key(SkuId sku, int bucket) {
        return sku.value() + '\u0000' + bucket;
    }
}
