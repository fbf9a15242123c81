package io.stockguard.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * {@code --profile}: a JFR recording of each measured run, with the JDK's "profile" settings
 * (method samples, allocations, locks, I/O). The StockGuard services run in the bench's JVM, so
 * one recording shows the clients and the service together. Warm-ups are not recorded.
 */
final class Profiler {

    /** Records nothing. */
    static final Profiler OFF = new Profiler(null);
    /** Most a recording keeps on disk; older events are dropped first. A 30 s run writes far less. */
    private static final long RECORDING_MAX_BYTES = 256L * 1024 * 1024;

    private final Path folder;
    private final AtomicInteger recordings = new AtomicInteger();

    private Profiler(Path folder) {
        this.folder = folder;
    }

    /** Writes {@code <name>.jfr} files into {@code folder}. */
    static Profiler into(Path folder) {
        return new Profiler(folder);
    }

    /** Starts recording; closing the profile writes {@code <name>.jfr}. A no-op when off. */
    Profile record(String name) throws IOException, ParseException {
        if (folder == null) {
            return () -> {
            };
        }
        Files.createDirectories(folder);
        Recording recording = new Recording(Configuration.getConfiguration("profile"));
        recording.setName(name);
        recording.setToDisk(true);
        recording.setMaxSize(RECORDING_MAX_BYTES);
        recording.start();
        return () -> {
            try (recording) {
                recording.stop();
                recording.dump(folder.resolve(name + ".jfr"));
                recordings.incrementAndGet();
            }
        };
    }

    /** How many recordings were written. */
    int recordings() {
        return recordings.get();
    }

    /** A recording under way. */
    interface Profile extends AutoCloseable {

        @Override
        void close() throws IOException;
    }
}
