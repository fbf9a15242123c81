package io.stockguard.testing;

import io.stockguard.testkit.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.stockguard.testkit.CappedLog;
import java.util.concurrent.TimeUnit;

/**
 * The service as its own process, started from the runnable jar this build packaged, so that a
 * test can kill it without warning ({@code kill -9}): what a crashed instance leaves behind is
 * then exactly what a real one would.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final Path JAR = Path.of("target", "stockguard-exec.jar").toAbsolutePath();
    /**
     * How long a starting instance may log nothing before the wait for it fails. A start's speed
     * depends on the machine (23 s between two lines was seen under load), so the wait lasts for
     * as long as the start keeps logging, not for a fixed time.
     */
    private static final Duration START_STALL_MAX = Duration.ofSeconds(45);

    private final Process process;
    private final int port;
    private final Path log;
    private final CappedLog capped;

    private ServiceProcess(Process process, int port, Path log, CappedLog capped) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.capped = capped;
    }

    /** Starts an instance on the database with these settings (as RunningService would) and waits until it is healthy. */
    public static ServiceProcess start(TestDatabase database, Map<String, String> settings) {
        Map<String, String> properties = new HashMap<>();
        properties.put("spring.datasource.url", database.jdbcUrl());
        properties.put("spring.datasource.username", database.username());
        properties.put("spring.datasource.password", database.password());
        properties.putAll(settings);
        return launch(properties);
    }

    /**
     * Starts an instance of the embedded tier (its own PostgreSQL under {@code dataDirectory}) and
     * waits until it is healthy.
     */
    public static ServiceProcess startEmbedded(Path dataDirectory, Map<String, String> settings) {
        Map<String, String> properties = new HashMap<>(settings);
        properties.put("stockguard.data-dir", dataDirectory.toString());
        return launch(properties);
    }

    private static ServiceProcess launch(Map<String, String> settings) {
        int port = freePort();
        Map<String, String> properties = new HashMap<>();
        properties.put("server.port", Integer.toString(port));
        properties.put("stockguard.security.api-keys", "order-service:" + RunningService.API_KEY);
        properties.put("stockguard.security.admin-keys", "ops:" + RunningService.ADMIN_KEY);
        properties.putAll(settings);
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx512m", "-XX:TieredStopAtLevel=1", "-jar",
                JAR.toString()));
        properties.forEach((key, value) -> command.add("--" + key + "=" + value));
        try {
            Path log = Files.createTempFile("stockguard-instance-" + port + "-", ".log");
            CappedLog.Started process = CappedLog.start(new ProcessBuilder(command), log);
            ServiceProcess started = new ServiceProcess(process.process(), port, log, process.log());
            started.awaitHealthy();
            return started;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the service jar " + JAR, e);
        }
    }

    public StockGuardClient client() {
        return new StockGuardClient(baseUrl(), RunningService.API_KEY);
    }

    public String baseUrl() {
        return "http://localhost:" + port;
    }

    /** Kills the process without warning: no shutdown hook runs, nothing in flight is finished. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    /** Waits until the instance answers healthy, for as long as its start keeps logging. */
    private void awaitHealthy() {
        StockGuardClient anonymous = new StockGuardClient(baseUrl(), null);
        try {
            Progress.awaitWhileGrowing("the instance on port " + port + " to be healthy", () -> {
                if (!process.isAlive()) {
                    throw new AssertionError("the instance exited at start (exit code " + process.exitValue() + ")");
                }
                try {
                    return anonymous.send("GET", "/actuator/health", null).status() == 200;
                } catch (RuntimeException e) {
                    return false;
                }
            }, () -> log.toFile().length(), START_STALL_MAX);
        } catch (AssertionError e) {
            close();
            throw new AssertionError(e.getMessage() + "\n" + output(), e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        capped.assertWithinLimit();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
