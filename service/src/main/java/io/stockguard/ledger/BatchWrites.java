package io.stockguard.ledger;

import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
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
import java.util.function.Function;
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
        Set<Bucket> changed = jdbc.execute((Connection connection) -> {
            try (PreparedStatement statement = connection.prepareStatement(oneStatement)) {
                Arrays arrays = new Arrays(connection, statement);
                arrays.text(changes, c -> c.skuId().value());
                arrays.of("int4", changes, BucketRows.NetChange::bucket);
                arrays.of("int8", changes, BucketRows.NetChange::available);
                arrays.of("int8", changes, BucketRows.NetChange::reserved);
                arrays.of("int8", changes, BucketRows.NetChange::sold);
                arrays.text(headers, h -> h.orderId().value());
                arrays.text(headers, h -> h.state().name());
                arrays.text(headers, ReservationRows.Header::fingerprint);
                arrays.text(headers, h -> instant(h.createdAt()));
                arrays.text(headers, h -> instant(h.expiresAt()));
                arrays.text(headers, h -> instant(h.confirmedAt()));
                arrays.text(headers, h -> instant(h.closedAt()));
                arrays.text(headers, ReservationRows.Header::traceId);
                arrays.text(headers, h -> CustomerId.valueOf(h.customerId()));
                arrays.text(lineRows, row -> row.getKey().value());
                arrays.text(lineRows, row -> row.getValue().skuId().value());
                arrays.of("int4", lineRows, row -> row.getValue().qty());
                arrays.of("int4", lineRows, row -> row.getValue().bucket());
                Set<Bucket> updated = new HashSet<>();
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        updated.add(new Bucket(SkuId.of(rows.getString(1)), rows.getInt(2)));
                    }
                }
                return updated;
            }
        });
        for (BucketRows.NetChange change : changes) {
            if (!changed.contains(new Bucket(change.skuId(), change.bucket()))) {
                throw BucketRows.refused(change.skuId(), change.bucket());
            }
        }
    }

    /** A bucket the statement changed, as it returned it. */
    private record Bucket(SkuId sku, int bucket) {
    }

    /** Binds the statement's array parameters in order, one column of the rows each. */
    private static final class Arrays {
        private final Connection connection;
        private final PreparedStatement statement;
        private int next = 1;

        Arrays(Connection connection, PreparedStatement statement) {
            this.connection = connection;
            this.statement = statement;
        }

        <T> void text(List<T> rows, Function<T, String> column) throws SQLException {
            of("text", rows, column);
        }

        <T> void of(String type, List<T> rows, Function<T, ?> column) throws SQLException {
            statement.setArray(next++, connection.createArrayOf(type, rows.stream().map(column).toArray()));
        }
    }

    /**
     * An instant as PostgreSQL reads a TIMESTAMPTZ literal: ISO-8601 in UTC; the server keeps
     * microseconds, as it does for an instant bound as a timestamp.
     */
    private static String instant(Instant at) {
        return at == null ? null : at.toString();
    }
}
