package io.stockguard.client;

import io.stockguard.testkit.CappedLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * StockGuard's embedded tier as a real process: the runnable jar this build packaged, with its own
 * PostgreSQL under a fresh data directory in {@code target/}. Started the way the service's and the
 * chaos suite's process tests start it, so that the client meets exactly what an order service would.
 */
final class RunningStockGuard implements AutoCloseable {

    static final Path JAR = Path.of("..", "service", "target", "stockguard-exec.jar").toAbsolutePath().normalize();
    static final String API_KEY = "client-it-order-service-key-0123456789";
    static final String ADMIN_KEY = "client-it-admin-key-0123456789";
    /**
     * How long a start may log nothing before it is given up: a start's speed depends on the
     * machine, so the wait lasts as long as it keeps logging, up to {@link #START_MAX} in all.
     */
    private static final Duration START_STALL_MAX = Duration.ofSeconds(60);
    private static final Duration START_MAX = Duration.ofMinutes(5);
    private static final Duration STOP_MAX = Duration.ofSeconds(30);

    private final Process process;
    private final int port;
    private final Path log;
    private final CappedLog capped;

    private RunningStockGuard(Process process, int port, Path log, CappedLog capped) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.capped = capped;
    }

    static RunningStockGuard start() {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR + " is missing: package the service first (./mvnw -pl client -am "
                    + "verify does)");
        }
        int port = freePort();
        try {
            Path target = Files.createDirectories(Path.of("target"));
            Path data = Files.createTempDirectory(target, "stockguard-it-");
            Path log = data.resolveSibling(data.getFileName() + ".log");
            String java = ProcessHandle.current().info().command().orElse("java");
            List<String> command = new ArrayList<>(List.of(java, "-Xmx512m", "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-jar", JAR.toString(), "--server.port=" + port,
                    "--stockguard.data-dir=" + data.toAbsolutePath(),
                    "--stockguard.security.api-keys=order-service:" + API_KEY,
                    "--stockguard.security.admin-keys=ops:" + ADMIN_KEY));
            CappedLog.Started process = CappedLog.start(new ProcessBuilder(command), log);
            RunningStockGuard started = new RunningStockGuard(process.process(), port, log, process.log());
            started.awaitHealthy();
            return started;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + JAR, e);
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Sends one request with the order-service key, straight to the service; the answer's status and body. */
    HttpResponse<String> send(String method, String path, String json) {
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path))
                    .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + API_KEY)
                    .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(json));
            if (json != null) {
                request.header("Content-Type", "application/json");
            }
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Waits until the instance answers healthy, for as long as its start keeps logging. */
    private void awaitHealthy() {
        Instant startedAt = Instant.now();
        long[] logged = {-1};
        Instant[] lastLogged = {startedAt};
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build()) {
            HttpRequest health = HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health"))
                    .timeout(Duration.ofSeconds(5)).build();
            Awaitility.await().atMost(START_MAX).pollInterval(Duration.ofMillis(250)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("StockGuard exited at start (exit code " + process.exitValue()
                            + "):\n" + output());
                }
                long size = log.toFile().length();
                Instant now = Instant.now();
                if (size != logged[0]) {
                    logged[0] = size;
                    lastLogged[0] = now;
                }
                if (Duration.between(lastLogged[0], now).compareTo(START_STALL_MAX) > 0) {
                    throw new IllegalStateException("StockGuard's start stopped logging for " + START_STALL_MAX
                            + " on port " + port + ":\n" + output());
                }
                try {
                    return http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                } catch (IOException notYet) {
                    return false;
                }
            });
        } catch (RuntimeException e) {
            close();
            throw new IllegalStateException("StockGuard was not healthy on port " + port + " after "
                    + Duration.between(startedAt, Instant.now()).toSeconds() + " s:\n" + output(), e);
        }
    }

    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    /**
     * Stops the service as an operator would (SIGTERM: it stops its PostgreSQL on the way out); one
     * that does not stop in time is killed with the processes it started, so no PostgreSQL outlives
     * the test.
     */
    @Override
    public void close() {
        capped.assertWithinLimit();
        if (!process.isAlive()) {
            return;
        }
        List<ProcessHandle> started = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(STOP_MAX.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                started.forEach(ProcessHandle::destroyForcibly);
                process.waitFor(STOP_MAX.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
