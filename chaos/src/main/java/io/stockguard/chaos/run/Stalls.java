package io.stockguard.chaos.run;

import io.stockguard.chaos.history.History;
import io.stockguard.testkit.ServiceProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Stretches in which a process of the run did not run: the runner's own (a thread that asks to wake
 * every few milliseconds and woke late: the machine or the runner's collector held it) and each
 * service instance's collector pauses (from the GC logs its starts write). A request that timed out
 * with no fault is the service's failure either way; these say whether the whole machine, the runner
 * or the instance stood still meanwhile, which is where a diagnosis starts.
 */
final class Stalls {

    /** Stalls shorter than this are the ordinary noise of a busy two-core machine. */
    static final Duration SHOWN_FROM = Duration.ofMillis(200);
    private static final Duration TICK = Duration.ofMillis(5);
    /** Bound on the stalls kept per run; a machine that stalls more than this is described by the first ones. */
    private static final int KEPT_MAX = 1_000;
    /** A pause line of {@code -Xlog:gc} with the {@code timemillis} decoration. */
    private static final Pattern GC_PAUSE = Pattern.compile("^\\[(\\d+)ms\\].*\\bPause\\b.* ([0-9.]+)ms$");

    /** One stall: who stood still, from when (milliseconds of the history) and for how long. */
    record Stall(String who, long atMillis, long lengthMillis) {
    }

    private final History history;
    private final LongSupplier nanoTime;
    private final List<Stall> runner = Collections.synchronizedList(new ArrayList<>());
    private final Thread meter;
    private volatile boolean stopped;

    private Stalls(History history, LongSupplier nanoTime) {
        this.history = history;
        this.nanoTime = nanoTime;
        this.meter = Thread.ofPlatform().daemon().name("chaos-stall-meter").unstarted(this::measure);
    }

    /** Starts measuring the runner's stalls. */
    static Stalls measure(History history) {
        return measure(history, System::nanoTime);
    }

    /** As {@link #measure(History)}, on the given monotonic clock (for tests). */
    static Stalls measure(History history, LongSupplier nanoTime) {
        Stalls stalls = new Stalls(history, nanoTime);
        stalls.meter.start();
        return stalls;
    }

    private void measure() {
        while (!stopped) {
            long before = nanoTime.getAsLong();
            long at = history.millis();
            LockSupport.parkNanos(TICK.toNanos());
            long late = (nanoTime.getAsLong() - before - TICK.toNanos()) / 1_000_000;
            if (late >= SHOWN_FROM.toMillis() && runner.size() < KEPT_MAX) {
                runner.add(new Stall("runner", at, late));
            }
        }
    }

    /** The runner's stalls measured so far. */
    List<Stall> runnerSoFar() {
        return List.copyOf(runner);
    }

    /** Stops measuring (also when the run failed before its stalls were read). */
    void halt() {
        stopped = true;
    }

    /** Stops measuring; returns the runner's stalls and the instances' collector pauses found in {@code folder}. */
    List<Stall> stop(Path folder) {
        halt();
        List<Stall> all = new ArrayList<>(runner);
        all.addAll(collectorPauses(folder, history));
        all.sort(java.util.Comparator.comparingLong(Stall::atMillis));
        return all;
    }

    /** The collector pauses of {@link #SHOWN_FROM} or longer in the GC logs directly in {@code folder}. */
    static List<Stall> collectorPauses(Path folder, History history) {
        List<Stall> pauses = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(ServiceProcess.GC_LOG_SUFFIX))
                    .sorted().toList()) {
                String name = file.getFileName().toString();
                String who = name.substring(0, name.length() - ServiceProcess.GC_LOG_SUFFIX.length());
                for (String line : Files.readAllLines(file)) {
                    Matcher pause = GC_PAUSE.matcher(line.strip());
                    if (!pause.matches()) {
                        continue;
                    }
                    long length = (long) Double.parseDouble(pause.group(2));
                    if (length >= SHOWN_FROM.toMillis() && pauses.size() < KEPT_MAX) {
                        long end = history.millisOf(Long.parseLong(pause.group(1)));
                        pauses.add(new Stall(who + " (collector)", end - length, length));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the GC logs in " + folder, e);
        }
        return pauses;
    }

    /** One line for the report. */
    static String describe(List<Stall> stalls) {
        if (stalls.isEmpty()) {
            return String.format("stalls of %d ms or more: none (the runner's and the instances' collectors)%n",
                    SHOWN_FROM.toMillis());
        }
        StringBuilder text = new StringBuilder(String.format("stalls of %d ms or more:", SHOWN_FROM.toMillis()));
        for (Stall stall : stalls) {
            text.append(String.format(" %s at %.3fs for %d ms;", stall.who(), stall.atMillis() / 1000.0,
                    stall.lengthMillis()));
        }
        return text.append(System.lineSeparator()).toString();
    }
}
