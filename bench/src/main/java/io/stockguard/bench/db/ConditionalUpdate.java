package io.stockguard.bench.db;

import io.stockguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** The plainest fix the post-mortem names: one conditional UPDATE on one row per SKU (autocommit). */
public final class ConditionalUpdate extends JdbcContender {

    public ConditionalUpdate(TestDatabase database) {
        super(database, "db-conditional",
                "UPDATE … SET stock = stock - ? WHERE sku = ? AND stock >= ? on one row (autocommit)", true);
    }

    @Override
    public Session open() throws SQLException {
        Connection connection = connect();
        PreparedStatement take = connection.prepareStatement(sql.get("takeIfEnough"));
        return new JdbcSession(connection, sql, "readStock") {
            @Override
            public Attempt reserve(String sku, int qty, String orderId) throws SQLException {
                take.setInt(1, qty);
                take.setString(2, sku);
                take.setInt(3, qty);
                return take.executeUpdate() == 1 ? Attempt.SOLD : Attempt.SOLD_OUT;
            }
        };
    }
}
