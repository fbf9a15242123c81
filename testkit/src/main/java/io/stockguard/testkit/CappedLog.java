package io.stockguard.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The output of a process a test started, written to its log file up to a limit and dropped after
 * it (with one line saying so), so that a process that logs in a loop cannot fill the disk. The
 * launcher asks {@link #exceeded()} when it stops the process and fails the test if it was.
 */
public final class CappedLog {

    /** Per process: far beyond what a healthy service writes in a test or a ten-minute demo. */
    public static final long LIMIT_BYTES_DEFAULT = 256L * 1024 * 1024;

    private final Path file;
    private final long limitBytes;
    private final AtomicBoolean exceeded = new AtomicBoolean();

    private CappedLog(Path file, long limitBytes) {
        this.file = file;
        this.limitBytes = limitBytes;
    }

    /**
     * Starts the process with its output and errors going to {@code file} (appended), at most
     * {@code limitBytes} of it.
     */
    public static Started start(ProcessBuilder builder, Path file, long limitBytes) throws IOException {
        CappedLog log = new CappedLog(file, limitBytes);
        Process process = builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.PIPE).start();
        Thread.ofPlatform().daemon().name("log-" + file.getFileName()).start(() -> log.pump(process.getInputStream()));
        return new Started(process, log);
    }

    public static Started start(ProcessBuilder builder, Path file) throws IOException {
        return start(builder, file, LIMIT_BYTES_DEFAULT);
    }

    /** A process and its log. */
    public record Started(Process process, CappedLog log) {
    }

    /** Whether the process wrote more than the limit (the rest was dropped). */
    public boolean exceeded() {
        return exceeded.get();
    }

    public Path file() {
        return file;
    }

    /** Fails (for the test) when the limit was passed. */
    public void assertWithinLimit() {
        if (exceeded()) {
            throw new IllegalStateException(file + " passed " + limitBytes / (1024 * 1024)
                    + " MB: the process logged in a loop; the rest of its output was dropped");
        }
    }

    private void pump(InputStream in) {
        byte[] buffer = new byte[64 * 1024];
        long written = 0;
        try (in; OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (written + n <= limitBytes) {
                    out.write(buffer, 0, n);
                    out.flush();
                } else if (exceeded.compareAndSet(false, true)) {
                    out.write(("\n[CappedLog] more than " + limitBytes + " bytes: the rest is dropped\n")
                            .getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
                written += n;
            }
        } catch (IOException e) {
            if (!exceeded.get()) {
                // The process ended or the file went away: nothing more to keep.
                return;
            }
            throw new UncheckedIOException(e);
        }
    }
}
