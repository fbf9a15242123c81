package io.stockguard.testkit;

import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** A fresh, empty database on one of the real servers the tests start. */
public record TestDatabase(Kind kind, String jdbcUrl, String username, String password) {

    public enum Kind { POSTGRESQL, MARIADB }

    public static TestDatabase fresh(Kind kind) {
        return switch (kind) {
            case POSTGRESQL -> PostgresServer.instance().newDatabase();
            case MARIADB -> MariaDbServer.instance().newDatabase();
        };
    }

    /** The port the database server listens on, from the JDBC URL. */
    public int port() {
        return Integer.parseInt(jdbcUrl.replaceAll(".*://[^:/]+:(\\d+)/.*", "$1"));
    }

    /** The same database reached on another port: through a {@link TcpProxy} to {@link #port()}, say. */
    public TestDatabase atPort(int other) {
        return new TestDatabase(kind, jdbcUrl.replace(":" + port() + "/", ":" + other + "/"), username, password);
    }

    /** A small pool for the test's own checks, separate from the service's. */
    public DataSource dataSource() {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(jdbcUrl);
        dataSource.setUsername(username);
        dataSource.setPassword(password);
        dataSource.setMaximumPoolSize(4);
        dataSource.setPoolName("test-checks-" + kind);
        return dataSource;
    }

    public JdbcTemplate jdbc() {
        return new JdbcTemplate(dataSource());
    }
}
