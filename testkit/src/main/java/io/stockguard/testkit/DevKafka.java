package io.stockguard.testkit;

import java.util.concurrent.CountDownLatch;

/**
 * A one-node Kafka for trying the full tier on a laptop ({@code ./stockguard kafka}): the same
 * broker the tests use, on a fixed port, until Ctrl-C. Its data lives in a temporary folder and
 * is gone when it stops: a trial, not a deployment.
 */
public final class DevKafka {

    private DevKafka() {
    }

    public static void main(String[] arguments) throws InterruptedException {
        int port = 9092;
        for (String argument : arguments) {
            if (argument.startsWith("--port=")) {
                port = Integer.parseInt(argument.substring("--port=".length()));
            } else {
                System.err.println("usage: DevKafka [--port=9092]");
                System.exit(2);
            }
        }
        KafkaCluster kafka = KafkaCluster.single(port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            kafka.close();
            stopped.countDown();
        }));
        System.out.println("Kafka is ready at " + kafka.bootstrapServers() + " (Ctrl-C stops it; its data goes with it)");
        stopped.await();
    }
}
