package io.stockguard.chaos.cluster;

import io.stockguard.testkit.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * One StockGuard instance of a chaos run: the service as its own process (started, killed and
 * started again by the testkit's launcher), whose clock a fault can move. The service reads the
 * offset from a file it watches ({@code stockguard.testing.clock-offset-file}).
 */
public final class ServiceInstance implements AutoCloseable {

    private final ServiceProcess process;
    private final Path clockOffset;

    ServiceInstance(String name, Path jar, int port, Map<String, String> settings, Path home) {
        this.clockOffset = home.resolve("clock-offset-" + name);
        Map<String, String> own = new HashMap<>(settings);
        own.put("stockguard.testing.clock-offset-file", clockOffset.toString());
        this.process = new ServiceProcess(name, jar, port, own, home);
    }

    public String name() {
        return process.name();
    }

    public String baseUrl() {
        return process.baseUrl();
    }

    public boolean isRunning() {
        return process.isRunning();
    }

    public long pid() {
        return process.pid();
    }

    /** Starts the process and waits until its health endpoint answers UP. */
    public void start() {
        process.start();
    }

    /** {@code kill -9}: no shutdown hook runs, nothing in flight is finished. */
    public void kill() {
        process.kill();
    }

    /** Moves this instance's clock by {@code offset} from the true time (zero puts it back). */
    public void skewClock(Duration offset) {
        try {
            // Written whole, then moved into place: the service never reads half an offset.
            Path next = clockOffset.resolveSibling(clockOffset.getFileName() + ".next");
            Files.writeString(next, offset.toString());
            Files.move(next, clockOffset, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move the clock of instance " + name(), e);
        }
    }

    /** Fails when a start of this instance logged past its cap (a runaway log). */
    public void assertLogsWithinLimit() {
        process.assertLogsWithinLimit();
    }

    /** Stops the instance (SIGTERM, then by force); the caller asks for the log limit separately. */
    @Override
    public void close() {
        try {
            process.close();
        } catch (IllegalStateException overLimit) {
            // Cluster.close asks every instance for its limit after all are stopped.
        }
    }
}
