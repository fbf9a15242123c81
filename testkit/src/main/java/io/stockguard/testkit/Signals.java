package io.stockguard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Pauses and resumes processes this test started, by pid ({@code kill -STOP} / {@code kill -CONT}):
 * a server that stops answering without closing a single connection, as a long GC pause, a
 * frozen VM or a saturated disk looks to its clients. The JDK can kill but not pause a process.
 */
public final class Signals {

    private Signals() {
    }

    /** Stops the processes (and, with {@code withDescendants}, their children) until {@link #resume}. */
    public static void pause(List<Long> pids) {
        send("-STOP", pids);
    }

    public static void resume(List<Long> pids) {
        send("-CONT", pids);
    }

    /** The pid and, after it, every live descendant of it (a postmaster and its backends, say). */
    public static List<Long> withDescendants(long pid) {
        List<Long> pids = new ArrayList<>(List.of(pid));
        ProcessHandle.of(pid).ifPresent(handle -> handle.descendants().forEach(child -> pids.add(child.pid())));
        return pids;
    }

    private static void send(String signal, List<Long> pids) {
        if (pids.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("kill", signal));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        try {
            Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill " + signal + " " + pids + " did not return");
            }
            if (kill.exitValue() != 0) {
                throw new IllegalStateException("kill " + signal + " " + pids + " failed: "
                        + new String(kill.getInputStream().readAllBytes()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill " + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending " + signal, e);
        }
    }
}
