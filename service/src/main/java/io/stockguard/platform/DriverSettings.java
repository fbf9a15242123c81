package io.stockguard.platform;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Locale;

/**
 * What a pool tells its JDBC driver: the checks the pool's post-processors share before they add a
 * driver setting of their own ({@link StatementTimeouts}, {@link BatchedInserts}).
 */
final class DriverSettings {

    private DriverSettings() {
    }

    static boolean isPostgres(HikariDataSource pool) {
        return pool.getJdbcUrl() != null && pool.getJdbcUrl().startsWith("jdbc:postgresql:");
    }

    /** Whether the deployment set the driver's {@code name} itself, in the pool's properties or the URL. */
    static boolean given(HikariDataSource pool, String name) {
        return pool.getDataSourceProperties().containsKey(name) || (pool.getJdbcUrl() != null
                && pool.getJdbcUrl().toLowerCase(Locale.ROOT).contains(name.toLowerCase(Locale.ROOT) + "="));
    }
}
