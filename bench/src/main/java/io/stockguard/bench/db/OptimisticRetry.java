package io.stockguard.bench.db;

import io.stockguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Optimistic locking with a version column and at most 3 retries: correct, but under contention
 * most attempts lose the version race (the post-mortem: under 30% success at 100k QPS).
 */
public final class OptimisticRetry extends JdbcContender {

    static final int RETRIES_MAX = 3;

    public OptimisticRetry(TestDatabase database) {
        super(database, "db-optimistic",
                "SELECT stock, version; UPDATE … WHERE version = ?; retry up to " + RETRIES_MAX + " times", true);
    }

    @Override
    public Session open() throws SQLException {
        Connection connection = connect();
        PreparedStatement read = connection.prepareStatement(sql.get("readVersioned"));
        PreparedStatement take = connection.prepareStatement(sql.get("takeIfVersion"));
        return new JdbcSession(connection, sql, "readStock") {
            @Override
            public Attempt reserve(String sku, int qty, String orderId) throws SQLException {
                for (int attempt = 0; attempt <= RETRIES_MAX; attempt++) {
                    read.setString(1, sku);
                    long stock;
                    long version;
                    try (ResultSet rs = read.executeQuery()) {
                        rs.next();
                        stock = rs.getLong(1);
                        version = rs.getLong(2);
                    }
                    if (stock < qty) {
                        return new Attempt(Outcome.SOLD_OUT, attempt);
                    }
                    take.setInt(1, qty);
                    take.setString(2, sku);
                    take.setLong(3, version);
                    if (take.executeUpdate() == 1) {
                        return new Attempt(Outcome.SOLD, attempt);
                    }
                }
                return new Attempt(Outcome.GAVE_UP, RETRIES_MAX);
            }
        };
    }
}
