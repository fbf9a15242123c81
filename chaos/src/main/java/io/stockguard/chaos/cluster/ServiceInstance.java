package io.stockguard.chaos.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import io.stockguard.testkit.CappedLog;

/**
 * One StockGuard instance as its own process ({@code java -jar} of the runnable jar the build
 * made), so that a fault can kill it without warning and start it again with the same settings:
 * what a crashed instance leaves behind is then exactly what a real one would.
 */
public final class ServiceInstance implements AutoCloseable {

    private static final Duration START_WAIT_MAX = Duration.ofSeconds(120);
    private static final Duration STOP_WAIT_MAX = Duration.ofSeconds(20);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final String name;
    private final Path jar;
    private final int port;
    private final Map<String, String> settings;
    private final Path home;
    private final Path clockOffset;
    private Process process;
    private int starts;
    /** The log of every start, each capped (CappedLog). */
    private final List<CappedLog> logs = new ArrayList<>();

    ServiceInstance(String name, Path jar, int port, Map<String, String> settings, Path home) {
        this.name = name;
        this.jar = jar.toAbsolutePath();
        this.port = port;
        this.home = home;
        this.clockOffset = home.resolve("clock-offset");
        this.settings = new TreeMap<>(settings);
        this.settings.put("server.port", Integer.toString(port));
        this.settings.put("stockguard.testing.clock-offset-file", clockOffset.toString());
    }

    public String name() {
        return name;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    public long pid() {
        if (!isRunning()) {
            throw new IllegalStateException("instance " + name + " is not running");
        }
        return process.pid();
    }

    /** Starts the process and waits until its health endpoint answers UP. */
    public void start() {
        if (isRunning()) {
            throw new IllegalStateException("instance " + name + " is already running");
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx512m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-jar", jar.toString()));
        settings.forEach((key, value) -> command.add("--" + key + "=" + value));
        try {
            starts++;
            Path log = home.resolve("instance-" + name + "-" + starts + ".log");
            CappedLog.Started started = CappedLog.start(new ProcessBuilder(command).directory(home.toFile()), log);
            process = started.process();
            logs.add(started.log());
            awaitHealthy(log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start instance " + name + " from " + jar, e);
        }
    }

    /** {@code kill -9}: no shutdown hook runs, nothing in flight is finished. */
    public void kill() {
        if (process != null) {
            process.destroyForcibly();
            waitForExit(process, STOP_WAIT_MAX);
        }
    }

    /** Moves this instance's clock by {@code offset} from the true time (zero puts it back). */
    public void skewClock(Duration offset) {
        try {
            Path next = home.resolve("clock-offset.next");
            Files.writeString(next, offset.toString());
            Files.move(next, clockOffset, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move the clock of instance " + name, e);
        }
    }

    private void awaitHealthy(Path log) {
        long deadline = System.nanoTime() + START_WAIT_MAX.toNanos();
        HttpRequest health = HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health"))
                .timeout(Duration.ofSeconds(2)).GET().build();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("instance " + name + " exited at start; its log: " + log);
            }
            try {
                if (HTTP.send(health, HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while instance " + name + " started", e);
            }
            LockSupport.parkNanos(Duration.ofMillis(250).toNanos());
        }
        process.destroyForcibly();
        throw new IllegalStateException("instance " + name + " was not healthy within " + START_WAIT_MAX
                + "; its log: " + log);
    }

    /** Fails when a start of this instance logged past its cap (a runaway log). */
    public void assertLogsWithinLimit() {
        logs.forEach(CappedLog::assertWithinLimit);
    }

    @Override
    public void close() {
        if (isRunning()) {
            process.destroy();
            if (!waitForExit(process, STOP_WAIT_MAX)) {
                process.destroyForcibly();
                waitForExit(process, STOP_WAIT_MAX);
            }
        }
    }

    private static boolean waitForExit(Process process, Duration max) {
        try {
            return process.waitFor(max.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
