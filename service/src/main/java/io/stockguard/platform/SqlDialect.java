package io.stockguard.platform;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * The two database families StockGuard runs on: PostgreSQL, and MariaDB, whose migrations and
 * statements are MySQL's dialect (a MySQL server would take them too, but no test starts one, so it
 * is not supported). Every statement that differs between the families lives in a per-dialect file.
 */
public enum SqlDialect {
    POSTGRESQL("postgresql"),
    MYSQL("mysql");

    private final String folder;

    SqlDialect(String folder) {
        this.folder = folder;
    }

    /** The resource folder name used for migrations and statement files. */
    public String folder() {
        return folder;
    }

    public static SqlDialect of(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            return ofProductName(connection.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach the database to detect its dialect: " + e.getMessage(), e);
        }
    }

    static SqlDialect ofProductName(String productName) {
        String name = productName.toLowerCase(Locale.ROOT);
        if (name.contains("postgres")) {
            return POSTGRESQL;
        }
        if (name.contains("mysql") || name.contains("mariadb")) {
            return MYSQL;
        }
        throw new IllegalStateException("unsupported database '" + productName
                + "': StockGuard runs on PostgreSQL or MariaDB");
    }
}
