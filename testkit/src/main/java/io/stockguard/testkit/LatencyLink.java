package io.stockguard.testkit;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A {@link TcpProxy} with a fixed delay as a process, for scripts that play a remote server
 * (bench/wrk's {@code NETWORK=remote}): every byte crosses it half the round trip later, each way.
 *
 * <pre>LatencyLink --to=PORT --round-trip-micros=N</pre>
 *
 * Prints {@code link is ready at 127.0.0.1:PORT} once it listens; runs until stopped.
 */
public final class LatencyLink {

    /** A round trip longer than this is a mistake in the script, not a network. */
    private static final long ROUND_TRIP_MICROS_MAX = 1_000_000;

    private LatencyLink() {
    }

    public static void main(String[] arguments) throws InterruptedException {
        int to = -1;
        long roundTripMicros = -1;
        for (String argument : arguments) {
            if (argument.startsWith("--to=")) {
                to = Integer.parseInt(argument.substring("--to=".length()));
            } else if (argument.startsWith("--round-trip-micros=")) {
                roundTripMicros = Long.parseLong(argument.substring("--round-trip-micros=".length()));
            } else {
                usage();
            }
        }
        if (to < 1 || to > 65_535 || roundTripMicros < 0 || roundTripMicros > ROUND_TRIP_MICROS_MAX) {
            usage();
        }
        TcpProxy link = TcpProxy.to(to).withoutNagle();
        link.delay(Duration.ofNanos(roundTripMicros * 1_000 / 2));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            link.close();
            stopped.countDown();
        }));
        System.out.println("link is ready at 127.0.0.1:" + link.port() + " to port " + to + ", round trip "
                + roundTripMicros + " µs");
        stopped.await();
    }

    private static void usage() {
        System.err.println("usage: LatencyLink --to=PORT --round-trip-micros=N (0 to " + ROUND_TRIP_MICROS_MAX + ")");
        System.exit(2);
    }
}
