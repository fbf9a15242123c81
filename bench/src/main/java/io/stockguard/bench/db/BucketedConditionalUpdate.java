package io.stockguard.bench.db;

import io.stockguard.bench.Catalogue;
import io.stockguard.stock.OrderId;
import io.stockguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The post-mortem's small-team fix: split each SKU into 8 bucket rows, hash the order onto one, and
 * conditionally update only that row. Less lock contention; but a bucket can run dry while
 * others still hold stock, so buyers are turned away from units that exist (false sold-outs).
 */
public final class BucketedConditionalUpdate extends JdbcContender {

    static final int BUCKETS = 8;

    public BucketedConditionalUpdate(TestDatabase database) {
        super(database, "db-8-buckets",
                "conditional UPDATE on one of 8 bucket rows chosen by hash(order id), no fallback", true);
    }

    @Override
    public void load(Catalogue catalogue) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql.get("dropBucket"));
            statement.execute(sql.get("createBucket"));
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(sql.get("insertBucket"))) {
                int n = 0;
                for (String sku : catalogue.skus()) {
                    for (int bucket = 0; bucket < BUCKETS; bucket++) {
                        long share = catalogue.unitsPerSku() / BUCKETS
                                + (bucket < catalogue.unitsPerSku() % BUCKETS ? 1 : 0);
                        insert.setString(1, sku);
                        insert.setInt(2, bucket);
                        insert.setLong(3, share);
                        insert.addBatch();
                        if (++n % LOAD_BATCH == 0) {
                            insert.executeBatch();
                        }
                    }
                }
                insert.executeBatch();
            }
            connection.commit();
        }
    }

    @Override
    public long[] remaining(Catalogue catalogue) throws Exception {
        return remainingIn("remainingBuckets", catalogue);
    }

    @Override
    public Session open() throws SQLException {
        Connection connection = connect();
        PreparedStatement take = connection.prepareStatement(sql.get("takeFromBucketIfEnough"));
        return new JdbcSession(connection, sql, "readBuckets") {
            @Override
            public Attempt reserve(String sku, int qty, String orderId) throws SQLException {
                take.setInt(1, qty);
                take.setString(2, sku);
                take.setInt(3, OrderId.of(orderId).homeBucket(BUCKETS));
                take.setInt(4, qty);
                return take.executeUpdate() == 1 ? Attempt.SOLD : Attempt.SOLD_OUT;
            }
        };
    }
}
