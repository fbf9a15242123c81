package io.stockguard.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A real redis-server process started and stopped by the test or benchmark itself. The binary is
 * the one the {@code embedded-redis} artifact carries (6.2.6), unpacked once per JVM, or the one
 * named by {@code STOCKGUARD_REDIS_SERVER}. Each server gets its own folder, so no stale
 * {@code dump.rdb} or {@code nodes.conf} leaks between tests.
 */
public final class RedisServer implements AutoCloseable {

    private static final Duration START_WAIT_MAX = Duration.ofSeconds(20);
    private static Path binary;

    private final int port;
    private final Path directory;
    private final List<String> arguments;
    private Process process;
    /** The TLS port, 0 for none. */
    private int tlsPort;

    private RedisServer(int port, Path directory, List<String> arguments) {
        this.port = port;
        this.directory = directory;
        this.arguments = List.copyOf(arguments);
    }

    /** A standalone server on a free port, persistence off. */
    public static RedisServer start(String... extraArguments) {
        return start(freePort(), extraArguments);
    }

    public static RedisServer start(int port, String... extraArguments) {
        try {
            Path directory = Files.createTempDirectory("stockguard-redis-" + port + "-");
            List<String> arguments = new ArrayList<>(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--protected-mode", "no", "--dir", directory.toString()));
            arguments.addAll(List.of(extraArguments));
            RedisServer server = new RedisServer(port, directory, arguments);
            server.launch();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-server", e);
        }
    }

    public int port() {
        return port;
    }

    /** The process id of the running server. */
    public long pid() {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("redis on " + port + " is not running");
        }
        return process.pid();
    }

    /** The server's folder: its log, and {@code dump.rdb} after a SAVE. */
    public Path directory() {
        return directory;
    }

    /**
     * A server on {@code port} that starts from a snapshot ({@code dump.rdb} of another server):
     * what clients of that address see when a replica that fell behind is promoted in the master's
     * place, having lost the writes it had not received.
     */
    public static RedisServer startFromSnapshot(int port, Path snapshot, String... extraArguments) {
        try {
            Path directory = Files.createTempDirectory("stockguard-redis-" + port + "-");
            Files.copy(snapshot, directory.resolve("dump.rdb"), StandardCopyOption.REPLACE_EXISTING);
            List<String> arguments = new ArrayList<>(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--protected-mode", "no", "--dir", directory.toString(),
                    "--dbfilename", "dump.rdb"));
            arguments.addAll(List.of(extraArguments));
            RedisServer server = new RedisServer(port, directory, arguments);
            server.launch();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-server from " + snapshot, e);
        }
    }

    /**
     * A Redis Sentinel on a free port that monitors the master on {@code masterPort} as
     * {@code masterName} (quorum 1: this Sentinel alone decides), declaring it down after
     * {@code downAfter} without an answer.
     */
    public static RedisServer startSentinel(String masterName, int masterPort, Duration downAfter) {
        return startSentinel(masterName, masterPort, downAfter, null, null);
    }

    /**
     * As {@link #startSentinel(String, int, Duration)}, for data nodes that demand {@code dataPassword}
     * ({@code requirepass}; the Sentinel logs in with {@code sentinel auth-pass}), the Sentinel itself
     * demanding {@code sentinelPassword}; either may be null for none.
     */
    public static RedisServer startSentinel(String masterName, int masterPort, Duration downAfter,
            String dataPassword, String sentinelPassword) {
        int port = freePort();
        try {
            Path directory = Files.createTempDirectory("stockguard-sentinel-" + port + "-");
            Path config = directory.resolve("sentinel.conf");
            List<String> lines = new ArrayList<>(List.of("port " + port, "bind 127.0.0.1", "protected-mode no",
                    "dir " + directory, "sentinel monitor " + masterName + " 127.0.0.1 " + masterPort + " 1",
                    "sentinel down-after-milliseconds " + masterName + " " + downAfter.toMillis(),
                    "sentinel failover-timeout " + masterName + " 10000",
                    "sentinel parallel-syncs " + masterName + " 1"));
            if (dataPassword != null) {
                lines.add("sentinel auth-pass " + masterName + " " + dataPassword);
            }
            if (sentinelPassword != null) {
                lines.add("requirepass " + sentinelPassword);
            }
            lines.add("");
            Files.writeString(config, String.join("\n", lines));
            RedisServer sentinel = new RedisServer(port, directory, List.of(config.toString(), "--sentinel"));
            sentinel.launch();
            return sentinel;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-sentinel", e);
        }
    }

    /** Stops the server answering, without closing a connection ({@code kill -STOP}), until {@link #resume()}. */
    public void pause() {
        Signals.pause(List.of(pid()));
    }

    public void resume() {
        Signals.resume(List.of(pid()));
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Kills the process without warning ({@code kill -9}): no save, no goodbye to clients. */
    public void kill() {
        if (process != null) {
            process.destroyForcibly();
            waitFor(process);
        }
    }

    /** Starts the server again on the same port and folder (after {@link #kill()}). */
    public void restart() {
        if (isRunning()) {
            throw new IllegalStateException("redis on " + port + " is still running");
        }
        try {
            launch();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restart redis-server on " + port, e);
        }
    }

    /**
     * A standalone server that also listens with TLS ({@link #tlsPort()}), with a server certificate
     * of {@code certificates}' CA and demanding a client certificate of it, and with the ACL users
     * {@code users} (each a {@code user} line of redis.conf without the word: "name on >password
     * ~keys +commands"). The plain port stays open to the default user for the test's own checks.
     */
    public static RedisServer startWithTls(TestCertificates certificates, List<String> users) {
        int tlsPort = freePort();
        List<String> arguments = new ArrayList<>(List.of("--tls-port", Integer.toString(tlsPort), "--tls-cert-file",
                certificates.serverCertificate().toString(), "--tls-key-file", certificates.serverKey().toString(),
                "--tls-ca-cert-file", certificates.caCertificate().toString(), "--tls-auth-clients", "yes"));
        for (String user : users) {
            arguments.add("--user");
            arguments.addAll(List.of(user.split(" ")));
        }
        RedisServer server = start(arguments.toArray(String[]::new));
        server.tlsPort = tlsPort;
        return server;
    }

    /** The TLS port of a server from {@link #startWithTls}. */
    public int tlsPort() {
        if (tlsPort == 0) {
            throw new IllegalStateException("redis on " + port + " has no TLS port");
        }
        return tlsPort;
    }

    /** One command as an ACL user on the plain port: its reply as {@link #command} gives it. */
    public String commandAs(String user, String password, String... parts) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(request("AUTH", user, password));
            out.flush();
            String auth = readLine(in);
            if (!auth.equals("+OK")) {
                return auth;
            }
            out.write(request(parts));
            out.flush();
            return reply(in);
        } catch (IOException e) {
            throw new UncheckedIOException("redis on " + port + " did not answer " + parts[0] + " as " + user, e);
        }
    }

    /**
     * Sends one command and returns its reply: a status or error line as sent ("+OK", "-ERR …",
     * ":1"), the content of a bulk string, or an array's elements one per line (for tests that poke a
     * server directly).
     */
    public String command(String... parts) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(request(parts));
            out.flush();
            return reply(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException("redis on " + port + " did not answer " + parts[0], e);
        }
    }

    @Override
    public void close() {
        kill();
    }

    private void launch() throws IOException {
        List<String> command = new ArrayList<>();
        command.add(binary().toString());
        command.addAll(arguments);
        process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(directory.resolve("redis.log").toFile()).start();
        long deadline = System.nanoTime() + START_WAIT_MAX.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited at start: "
                        + Files.readString(directory.resolve("redis.log")));
            }
            try {
                String pong = command("PING");
                // A server with requirepass answers, refusing: it is up.
                if (pong.equals("+PONG") || pong.startsWith("-NOAUTH")) {
                    return;
                }
            } catch (UncheckedIOException notYet) {
                // still starting
            }
            sleepBriefly();
        }
        process.destroyForcibly();
        throw new IllegalStateException("redis-server on " + port + " did not answer PING within " + START_WAIT_MAX);
    }

    private static synchronized Path binary() throws IOException {
        if (binary != null) {
            return binary;
        }
        String configured = System.getenv("STOCKGUARD_REDIS_SERVER");
        if (configured != null && !configured.isBlank()) {
            binary = Path.of(configured);
            return binary;
        }
        String resource = resourceForPlatform();
        Path unpacked = Files.createTempDirectory("stockguard-redis-bin").resolve("redis-server");
        try (InputStream in = RedisServer.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no redis-server binary " + resource + " on the class path");
            }
            Files.copy(in, unpacked, StandardCopyOption.REPLACE_EXISTING);
        }
        if (!unpacked.toFile().setExecutable(true)) {
            throw new IllegalStateException("cannot make " + unpacked + " executable");
        }
        binary = unpacked;
        return binary;
    }

    private static String resourceForPlatform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        boolean arm = arch.contains("aarch64") || arch.contains("arm");
        if (os.contains("mac")) {
            return arm ? "redis-server-6.2.6-v5-darwin-arm64" : "redis-server-6.2.6-v5-darwin-amd64";
        }
        if (os.contains("linux")) {
            return arm ? "redis-server-6.2.7-linux-arm64" : "redis-server-6.2.6-v5-linux-amd64";
        }
        throw new IllegalStateException("no bundled redis-server for " + os + "/" + arch
                + "; set STOCKGUARD_REDIS_SERVER to a redis-server binary");
    }

    private static byte[] request(String... parts) {
        StringBuilder request = new StringBuilder("*").append(parts.length).append("\r\n");
        for (String part : parts) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            request.append('$').append(bytes.length).append("\r\n").append(part).append("\r\n");
        }
        return request.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String reply(InputStream in) throws IOException {
        String line = readLine(in);
        if (line.startsWith("*") && !line.equals("*-1")) {
            // An array: its elements' replies, one per line.
            List<String> elements = new ArrayList<>();
            for (int i = Integer.parseInt(line.substring(1)); i > 0; i--) {
                elements.add(reply(in));
            }
            return String.join("\n", elements);
        }
        if (line.startsWith("$") && !line.equals("$-1")) {
            byte[] bulk = in.readNBytes(Integer.parseInt(line.substring(1)) + 2);
            return new String(bulk, 0, bulk.length - 2, StandardCharsets.UTF_8);
        }
        return line;
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\r') {
                in.read();
                break;
            }
            line.append((char) c);
        }
        return line.toString();
    }

    private static void waitFor(Process process) {
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Between PINGs of a starting server; the loop around it is bounded by START_WAIT_MAX. */
    private static void sleepBriefly() {
        LockSupport.parkNanos(20_000_000L);
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
