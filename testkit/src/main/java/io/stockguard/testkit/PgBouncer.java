package io.stockguard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A real PgBouncer (Debian's {@code pgbouncer}) in front of a test PostgreSQL, pooling by
 * transaction as shops run it in front of a busy database: each transaction gets whichever server
 * connection is free, and every server connection is reset ({@code DISCARD ALL}) when a transaction
 * gives it back, so no session setting outlives the transaction that made it. Started and stopped
 * by the test, by pid; its log is a file in its own folder.
 */
public final class PgBouncer implements AutoCloseable {

    private static final Duration START_WAIT_MAX = Duration.ofSeconds(20);
    private static final List<Path> PLACES = List.of(Path.of("/usr/sbin/pgbouncer"), Path.of("/usr/bin/pgbouncer"),
            Path.of("/usr/local/bin/pgbouncer"));
    /** PgBouncer refuses to run as root; it switches to this user when started as root. */
    private static final String USER_WHEN_ROOT = "nobody";

    private final int port;
    private final Path directory;
    private final Process process;

    private PgBouncer(int port, Path directory, Process process) {
        this.port = port;
        this.directory = directory;
        this.process = process;
    }

    /** The pgbouncer binary: {@code STOCKGUARD_PGBOUNCER}, else Debian's place, else the PATH. */
    public static Optional<Path> binary() {
        String configured = System.getenv("STOCKGUARD_PGBOUNCER");
        if (configured != null && !configured.isBlank()) {
            return Optional.of(Path.of(configured));
        }
        for (Path place : PLACES) {
            if (Files.isExecutable(place)) {
                return Optional.of(place);
            }
        }
        for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(folder, "pgbouncer");
            if (!folder.isBlank() && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * Pools every database of the PostgreSQL on {@code postgresPort} (user {@code postgres}, trusted
     * as the test server is) by transaction, with {@code serverConnections} server connections per
     * database.
     */
    public static PgBouncer transactionPooling(int postgresPort, int serverConnections) {
        Path binary = binary().orElseThrow(() -> new IllegalStateException("pgbouncer is not installed: "
                + "apt-get install pgbouncer (./stockguard test installs it), or set STOCKGUARD_PGBOUNCER"));
        int port = RedisServer.freePort();
        try {
            Path directory = Files.createTempDirectory("stockguard-pgbouncer-" + port + "-");
            // Readable by the user it runs as when started as root.
            Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path config = directory.resolve("pgbouncer.ini");
            Files.writeString(config, String.join("\n",
                    "[databases]",
                    "* = host=127.0.0.1 port=" + postgresPort + " user=postgres",
                    "[pgbouncer]",
                    "listen_addr = 127.0.0.1",
                    "listen_port = " + port,
                    "unix_socket_dir =",
                    "auth_type = any",
                    "pool_mode = transaction",
                    "server_reset_query = DISCARD ALL",
                    "server_reset_query_always = 1",
                    "default_pool_size = " + serverConnections,
                    "max_client_conn = 200",
                    // The JDBC driver sends it at every start; PgBouncer refuses what it does not know.
                    "ignore_startup_parameters = extra_float_digits",
                    "log_connections = 0",
                    "log_disconnections = 0",
                    ""));
            Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-r--r--"));
            List<String> command = new ArrayList<>(List.of(binary.toString()));
            if ("root".equals(System.getProperty("user.name"))) {
                command.addAll(List.of("-u", USER_WHEN_ROOT));
            }
            command.add(config.toString());
            Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .redirectOutput(directory.resolve("pgbouncer.log").toFile()).start();
            PgBouncer bouncer = new PgBouncer(port, directory, process);
            bouncer.awaitListening();
            return bouncer;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start pgbouncer", e);
        }
    }

    public int port() {
        return port;
    }

    /**
     * {@code database} reached through this PgBouncer: its URL with this port, and without the
     * driver's server-side prepared statements, which a transaction pooler cannot keep (a
     * statement prepared in one transaction is gone, or on another server connection, in the next).
     */
    public TestDatabase front(TestDatabase database) {
        TestDatabase through = database.atPort(port);
        String url = through.jdbcUrl() + (through.jdbcUrl().contains("?") ? "&" : "?") + "prepareThreshold=0";
        return new TestDatabase(through.kind(), url, through.username(), through.password());
    }

    public String log() {
        try {
            return Files.readString(directory.resolve("pgbouncer.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitListening() {
        long deadline = System.nanoTime() + START_WAIT_MAX.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("pgbouncer exited at start: " + log());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                // still starting
            }
            LockSupport.parkNanos(20_000_000L);
        }
        close();
        throw new IllegalStateException("pgbouncer on " + port + " did not listen within " + START_WAIT_MAX + ": "
                + log());
    }
}
