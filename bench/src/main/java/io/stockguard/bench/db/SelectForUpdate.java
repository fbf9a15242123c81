package io.stockguard.bench.db;

import io.stockguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Pessimistic locking: lock the row, check, update, commit. Correct; every buyer queues on the row. */
public final class SelectForUpdate extends JdbcContender {

    public SelectForUpdate(TestDatabase database) {
        super(database, "db-for-update", "SELECT … FOR UPDATE, check, UPDATE, COMMIT", true);
    }

    @Override
    public Session open() throws SQLException {
        Connection connection = connect();
        connection.setAutoCommit(false);
        PreparedStatement lock = connection.prepareStatement(sql.get("lockStock"));
        PreparedStatement take = connection.prepareStatement(sql.get("takeStock"));
        return new JdbcSession(connection, sql, "readStock") {
            @Override
            public Attempt reserve(String sku, int qty, String orderId) throws SQLException {
                try {
                    lock.setString(1, sku);
                    if (single(lock) < qty) {
                        connection.commit();
                        return Attempt.SOLD_OUT;
                    }
                    take.setInt(1, qty);
                    take.setString(2, sku);
                    take.executeUpdate();
                    connection.commit();
                    return Attempt.SOLD;
                } catch (SQLException e) {
                    connection.rollback();
                    throw e;
                }
            }

            @Override
            public long read(String sku) throws SQLException {
                long stock = super.read(sku);
                connection.commit();
                return stock;
            }
        };
    }
}
