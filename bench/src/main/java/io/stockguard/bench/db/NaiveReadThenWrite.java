package io.stockguard.bench.db;

import io.stockguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Read the stock, check it in code, write back the new value: the race the post-mortem starts from. */
public final class NaiveReadThenWrite extends JdbcContender {

    public NaiveReadThenWrite(TestDatabase database) {
        super(database, "db-naive", "SELECT stock, check in code, UPDATE SET stock = <computed> (autocommit)",
                false);
    }

    @Override
    public Session open() throws SQLException {
        Connection connection = connect();
        PreparedStatement select = connection.prepareStatement(sql.get("readStock"));
        PreparedStatement write = connection.prepareStatement(sql.get("naiveWrite"));
        return new JdbcSession(connection, sql, "readStock") {
            @Override
            public Attempt reserve(String sku, int qty, String orderId) throws SQLException {
                select.setString(1, sku);
                long stock = single(select);
                if (stock < qty) {
                    return Attempt.SOLD_OUT;
                }
                write.setLong(1, stock - qty);
                write.setString(2, sku);
                write.executeUpdate();
                return Attempt.SOLD;
            }
        };
    }
}
