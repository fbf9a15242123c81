package io.stockguard.chaos.cluster;

import io.stockguard.testkit.Signals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The PostgreSQL server process of a data directory, found through its {@code postmaster.pid}:
 * to pause the database with its backends, and to stop a server whose parent was killed.
 */
final class Postmaster {

    private Postmaster() {
    }

    /** The running postmaster of this data directory, if there is one. */
    static Optional<ProcessHandle> of(Path dataDirectory) {
        Path pidFile = dataDirectory.resolve("postmaster.pid");
        try {
            if (!Files.exists(pidFile)) {
                return Optional.empty();
            }
            List<String> lines = Files.readAllLines(pidFile);
            return lines.isEmpty() ? Optional.empty()
                    : ProcessHandle.of(Long.parseLong(lines.getFirst().trim())).filter(ProcessHandle::isAlive);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The port the running server of this data directory listens on (the fourth line of its pid file). */
    static int port(Path dataDirectory) {
        try {
            List<String> lines = Files.readAllLines(dataDirectory.resolve("postmaster.pid"));
            return Integer.parseInt(lines.get(3).trim());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("no running PostgreSQL in " + dataDirectory, e);
        }
    }

    static void pause(Path dataDirectory) {
        Signals.pause(Signals.withDescendants(require(dataDirectory).pid()));
    }

    static void resume(Path dataDirectory) {
        // Children first would not matter: a stopped process keeps its signals until continued.
        Signals.resume(Signals.withDescendants(require(dataDirectory).pid()));
    }

    /** Stops a postmaster left running (its parent was killed), and waits for it to go. */
    static void stopIfRunning(Path dataDirectory) {
        of(dataDirectory).ifPresent(postmaster -> {
            Signals.resume(Signals.withDescendants(postmaster.pid()));
            postmaster.destroy();
            try {
                postmaster.onExit().get(20, java.util.concurrent.TimeUnit.SECONDS);
            } catch (Exception e) {
                postmaster.destroyForcibly();
            }
        });
    }

    private static ProcessHandle require(Path dataDirectory) {
        return of(dataDirectory).orElseThrow(() -> new IllegalStateException("no PostgreSQL running in "
                + dataDirectory));
    }
}
