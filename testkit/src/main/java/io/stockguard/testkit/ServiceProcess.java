package io.stockguard.testkit;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The service as its own process: {@code java -jar} of the runnable jar a build packaged, its
 * settings as command-line arguments, its output in a capped log (one per start). The service's
 * tests, the client's tests and the chaos suite all start it here, so that a test meets exactly what
 * an order service would, and a fault can kill it without warning and start it again with the same
 * settings: what a crashed instance leaves behind is then exactly what a real one would.
 */
public final class ServiceProcess implements AutoCloseable {

    /**
     * Small heap and quick start: tests run several instances, PostgreSQL, Redis and Kafka on two
     * cores. The serial collector collects the whole heap, stopping the service, whenever metadata
     * or compiled code outgrows its mark; with the client compiler alone the code cache is 48 MB,
     * and every 7 MB of new code (15 %) set off such a collection: 100-640 ms each, several per
     * run once traffic reached new code (a first metrics scrape), longer than Redis's command
     * timeout (500 ms), so requests with no fault at all were answered "outcome unknown". A
     * deployment's default collector (G1) marks concurrently. Here the marks are set past what the
     * service uses: metadata from 192 MB, code from half of a 256 MB cache.
     */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx512m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-XX:MetaspaceSize=192m", "-XX:ReservedCodeCacheSize=256m",
            "-XX:SweeperThreshold=50");
    /**
     * Each start's collector pauses go to a file of their own beside its log, stamped with the wall
     * clock in milliseconds, so that a stall in a test's history can be laid beside them. One rotated
     * file of 2 MB at most: a run's pauses fit many times over.
     */
    public static final String GC_LOG_SUFFIX = "-gc.log";
    /**
     * How long a start may log nothing before it is given up. A start's speed depends on how busy
     * the machine is (23 s between two lines was seen under load), so the wait lasts for as long as
     * the start keeps logging, up to {@link #START_MAX} in all.
     */
    private static final Duration START_STALL_MAX = Duration.ofSeconds(60);
    private static final Duration START_MAX = Duration.ofMinutes(5);
    private static final Duration STOP_MAX = Duration.ofSeconds(30);
    private static final Duration HEALTH_POLL = Duration.ofMillis(250);
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(5);

    private final String name;
    private final Path jar;
    private final int port;
    private final Map<String, String> settings;
    private final Path home;
    private final List<CappedLog> logs = new ArrayList<>();
    private Process process;

    /**
     * @param name     names the instance in its logs' file names and in errors
     * @param jar      the runnable jar
     * @param port     its HTTP port (set as {@code server.port})
     * @param settings Spring settings, passed as {@code --key=value}
     * @param home     its working directory, where each start's log is kept
     */
    public ServiceProcess(String name, Path jar, int port, Map<String, String> settings, Path home) {
        this.name = name;
        this.jar = jar.toAbsolutePath().normalize();
        this.port = port;
        this.home = home.toAbsolutePath();
        this.settings = new TreeMap<>(settings);
        this.settings.put("server.port", Integer.toString(port));
    }

    private static String gcLog(Path file) {
        return "-Xlog:gc:file=" + file + ":timemillis:filecount=1,filesize=2m";
    }

    /** Starts an instance on a free port, its home a fresh directory under {@code parent}, and waits until it is healthy. */
    public static ServiceProcess start(Path jar, Map<String, String> settings, Path parent) {
        int port = freePort();
        try {
            Path home = Files.createTempDirectory(Files.createDirectories(parent), "stockguard-" + port + "-");
            ServiceProcess service = new ServiceProcess(Integer.toString(port), jar, port, settings, home);
            service.start();
            return service;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a home for the service under " + parent, e);
        }
    }

    public String name() {
        return name;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public Path home() {
        return home;
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

    /** Starts the process (again, after a kill or a stop) and waits until its health endpoint answers UP. */
    public void start() {
        if (isRunning()) {
            throw new IllegalStateException("instance " + name + " is already running");
        }
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: package the service first (./mvnw -pl service "
                    + "-am package -DskipTests)");
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(JVM_OPTIONS);
        String thisStart = "instance-" + name + "-" + (logs.size() + 1);
        command.add(gcLog(home.resolve(thisStart + GC_LOG_SUFFIX)));
        command.addAll(List.of("-jar", jar.toString()));
        settings.forEach((key, value) -> command.add("--" + key + "=" + value));
        Path log = home.resolve(thisStart + ".log");
        try {
            CappedLog.Started started = CappedLog.start(new ProcessBuilder(command).directory(home.toFile()), log);
            process = started.process();
            logs.add(started.log());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start instance " + name + " from " + jar, e);
        }
        awaitHealthy(log);
    }

    /** {@code kill -9}: no shutdown hook runs, nothing in flight is finished, and what it started (its PostgreSQL) is left behind. */
    public void kill() {
        if (process != null) {
            process.destroyForcibly();
            waitForExit(process, STOP_MAX);
        }
    }

    /** What the latest start has logged so far. */
    public String output() {
        if (logs.isEmpty()) {
            return "(not started)";
        }
        Path log = logs.getLast().file();
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no output in " + log + ": " + e + ")";
        }
    }

    /** Fails when a start of this instance logged past its cap (a runaway log). */
    public void assertLogsWithinLimit() {
        logs.forEach(CappedLog::assertWithinLimit);
    }

    /**
     * Stops the service as an operator would (SIGTERM: it stops its own PostgreSQL on the way out);
     * one that does not stop in time is killed with the processes it started, so nothing it started
     * outlives the test. Then fails if a start logged past its cap.
     */
    @Override
    public void close() {
        stop();
        assertLogsWithinLimit();
    }

    private void stop() {
        if (isRunning()) {
            List<ProcessHandle> started = process.descendants().toList();
            process.destroy();
            if (!waitForExit(process, STOP_MAX)) {
                process.destroyForcibly();
                started.forEach(ProcessHandle::destroyForcibly);
                waitForExit(process, STOP_MAX);
            }
        }
    }

    /** Waits for health for as long as the start keeps logging; a start that fails is stopped and named with its log. */
    private void awaitHealthy(Path log) {
        long startedAt = System.nanoTime();
        long loggedBytes = -1;
        long lastLoggedAt = startedAt;
        HttpRequest health = HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health"))
                .timeout(HEALTH_TIMEOUT).GET().build();
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build()) {
            while (true) {
                if (!process.isAlive()) {
                    throw failedStart("exited at start (exit code " + process.exitValue() + ")", log);
                }
                if (healthy(http, health)) {
                    return;
                }
                long now = System.nanoTime();
                long size = log.toFile().length();
                if (size != loggedBytes) {
                    loggedBytes = size;
                    lastLoggedAt = now;
                }
                if (now - lastLoggedAt > START_STALL_MAX.toNanos()) {
                    throw failedStart("logged nothing for " + START_STALL_MAX.toSeconds() + " s while starting", log);
                }
                if (now - startedAt > START_MAX.toNanos()) {
                    throw failedStart("was not healthy within " + START_MAX.toMinutes() + " min", log);
                }
                LockSupport.parkNanos(HEALTH_POLL.toNanos());
            }
        }
    }

    private static boolean healthy(HttpClient http, HttpRequest health) {
        try {
            return http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the service to start", e);
        }
    }

    private IllegalStateException failedStart(String what, Path log) {
        String output = output();
        stop();
        return new IllegalStateException("instance " + name + " on port " + port + " " + what + "; its log ("
                + log + "):\n" + tail(output));
    }

    /** The end of a log, where a failed start says why; the whole file stays on disk. */
    private static String tail(String output) {
        int shownChars = 20_000;
        return output.length() <= shownChars ? output : "…\n" + output.substring(output.length() - shownChars);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
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
