package io.stockguard.bench.db;

import io.stockguard.bench.Catalogue;
import io.stockguard.bench.Contender;
import io.stockguard.bench.DescribedContender;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * Base of the database contenders: each client has one connection of its own (no pool), as an
 * order service instance would; the tables are created fresh for every run (one row per SKU
 * unless a contender loads its own). A contender only says what it is and how a session takes
 * stock.
 */
abstract class JdbcContender extends DescribedContender {

    static final int LOAD_BATCH = 1_000;

    protected final TestDatabase database;
    protected final SqlStatements sql;

    JdbcContender(TestDatabase database, String name, String description, boolean claimsCorrectness) {
        super(name, description, claimsCorrectness);
        this.database = database;
        this.sql = SqlStatements.load("contenders", database.kind() == TestDatabase.Kind.POSTGRESQL
                ? SqlDialect.POSTGRESQL : SqlDialect.MYSQL);
    }

    @Override
    public Family family() {
        return Family.DATABASE;
    }

    @Override
    public void load(Catalogue catalogue) throws SQLException {
        loadStockTable(catalogue);
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
    }

    /** The one-row-per-SKU table, loaded with the catalogue's stock. */
    void loadStockTable(Catalogue catalogue) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql.get("dropStock"));
            statement.execute(sql.get("createStock"));
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(sql.get("insertStock"))) {
                int n = 0;
                for (String sku : catalogue.skus()) {
                    insert.setString(1, sku);
                    insert.setLong(2, catalogue.unitsPerSku());
                    insert.addBatch();
                    if (++n % LOAD_BATCH == 0) {
                        insert.executeBatch();
                    }
                }
                insert.executeBatch();
            }
            connection.commit();
        }
    }

    long[] remainingIn(String statementName, Catalogue catalogue) throws SQLException {
        Map<String, Long> bySku = new HashMap<>();
        try (Connection connection = connect(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(sql.get(statementName))) {
            while (rs.next()) {
                bySku.put(rs.getString(1), rs.getLong(2));
            }
        }
        long[] remaining = new long[catalogue.size()];
        for (int i = 0; i < remaining.length; i++) {
            remaining[i] = bySku.getOrDefault(catalogue.skus().get(i), 0L);
        }
        return remaining;
    }

    @Override
    public long[] remaining(Catalogue catalogue) throws Exception {
        return remainingIn("remainingStock", catalogue);
    }

    /** A session on one connection with its statements prepared once. */
    abstract static class JdbcSession implements Session {

        protected final Connection connection;
        private final PreparedStatement read;

        JdbcSession(Connection connection, SqlStatements sql, String readStatement) throws SQLException {
            this.connection = connection;
            this.read = connection.prepareStatement(sql.get(readStatement));
        }

        @Override
        public long read(String sku) throws SQLException {
            read.setString(1, sku);
            try (ResultSet rs = read.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }

        static long single(PreparedStatement query) throws SQLException {
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }

        @Override
        public void close() throws SQLException {
            connection.close();
        }
    }
}
