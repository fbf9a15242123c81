package io.stockguard.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * A real Redis Cluster of three masters, built by hand (the embedded-redis cluster builder
 * fails): each node started with cluster mode on, a third of the 16,384 slots assigned to each,
 * then introduced to each other with CLUSTER MEET.
 */
public final class RedisCluster implements AutoCloseable {

    private static final int SLOTS = 16_384;
    private static final Duration FORM_WAIT_MAX = Duration.ofSeconds(30);

    private final List<RedisServer> nodes;

    private RedisCluster(List<RedisServer> nodes) {
        this.nodes = nodes;
    }

    public static RedisCluster start() {
        List<RedisServer> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add(RedisServer.start("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "2000"));
        }
        int perNode = SLOTS / 3;
        for (int i = 0; i < 3; i++) {
            int from = i * perNode;
            int to = i == 2 ? SLOTS - 1 : from + perNode - 1;
            List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
            for (int slot = from; slot <= to; slot++) {
                command.add(Integer.toString(slot));
            }
            expectOk(nodes.get(i).command(command.toArray(String[]::new)));
        }
        for (int i = 1; i < 3; i++) {
            expectOk(nodes.getFirst().command("CLUSTER", "MEET", "127.0.0.1", Integer.toString(nodes.get(i).port())));
        }
        RedisCluster cluster = new RedisCluster(nodes);
        cluster.awaitFormed();
        return cluster;
    }

    /** Seed URIs for a cluster client, comma-separated. */
    public String uris() {
        return nodes.stream().map(RedisServer::uri).collect(Collectors.joining(","));
    }

    public List<RedisServer> nodes() {
        return nodes;
    }

    private void awaitFormed() {
        long deadline = System.nanoTime() + FORM_WAIT_MAX.toNanos();
        while (System.nanoTime() < deadline) {
            boolean formed = nodes.stream().allMatch(node -> {
                String info = node.command("CLUSTER", "INFO");
                return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:3");
            });
            if (formed) {
                return;
            }
            LockSupport.parkNanos(50_000_000L);
        }
        throw new IllegalStateException("the Redis cluster did not form within " + FORM_WAIT_MAX);
    }

    private static void expectOk(String reply) {
        if (!reply.equals("+OK")) {
            throw new IllegalStateException("Redis answered " + reply);
        }
    }

    @Override
    public void close() {
        nodes.forEach(RedisServer::close);
    }
}
