package io.stockguard.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * A real Redis Cluster of three masters, and optionally a replica of each, built by hand (the
 * embedded-redis cluster builder fails): each node started with cluster mode on, a third of the
 * 16,384 slots assigned to each master, the nodes introduced to each other with CLUSTER MEET, and each
 * replica told which master to follow with CLUSTER REPLICATE.
 */
public final class RedisCluster implements AutoCloseable {

    private static final int SLOTS = 16_384;
    private static final Duration FORM_WAIT_MAX = Duration.ofSeconds(30);

    private final List<RedisServer> nodes;

    private RedisCluster(List<RedisServer> nodes) {
        this.nodes = nodes;
    }

    public static RedisCluster start() {
        return start(false);
    }

    /**
     * Three masters, each with a replica of its own (six nodes), as shops run a cluster: a master's
     * failure or a manual {@code CLUSTER FAILOVER} promotes its replica.
     */
    public static RedisCluster startWithReplicas() {
        return start(true);
    }

    private static RedisCluster start(boolean replicas) {
        List<RedisServer> nodes = new ArrayList<>();
        for (int i = 0; i < (replicas ? 6 : 3); i++) {
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
        for (int i = 1; i < nodes.size(); i++) {
            expectOk(nodes.getFirst().command("CLUSTER", "MEET", "127.0.0.1", Integer.toString(nodes.get(i).port())));
        }
        RedisCluster cluster = new RedisCluster(nodes);
        cluster.awaitFormed();
        if (replicas) {
            for (int i = 0; i < 3; i++) {
                String masterId = nodes.get(i).command("CLUSTER", "MYID");
                RedisServer replica = nodes.get(i + 3);
                // The replica must have heard of its master through the cluster bus first.
                await("node " + replica.port() + " to know its master", () -> replica.command("CLUSTER", "NODES")
                        .contains(masterId));
                expectOk(replica.command("CLUSTER", "REPLICATE", masterId));
            }
            for (int i = 0; i < 3; i++) {
                RedisServer master = nodes.get(i);
                await("master " + master.port() + " to have its replica in sync", () -> master
                        .command("INFO", "replication").contains("state=online"));
            }
        }
        return cluster;
    }

    /** The slot a key hashes to ({@code CLUSTER KEYSLOT}). */
    public int slot(String key) {
        return Integer.parseInt(nodes.getFirst().command("CLUSTER", "KEYSLOT", key).substring(1));
    }

    /** The master serving a slot now, as the cluster's nodes agree it ({@code CLUSTER NODES} of a live node). */
    public RedisServer masterOf(int slot) {
        for (String line : liveNode().command("CLUSTER", "NODES").split("\n")) {
            String[] fields = line.split(" ");
            if (!fields[2].contains("master") || fields[2].contains("fail")) {
                continue;
            }
            for (int i = 8; i < fields.length; i++) {
                if (fields[i].startsWith("[")) {
                    continue;
                }
                String[] range = fields[i].split("-");
                int from = Integer.parseInt(range[0]);
                int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
                if (slot >= from && slot <= to) {
                    return byAddress(fields[1]);
                }
            }
        }
        throw new IllegalStateException("no master serves slot " + slot);
    }

    /**
     * The node replicating {@code master}, once the cluster's view says so: after a failover the
     * old master turns into the new one's replica by gossip, a moment after the failover answered.
     */
    public RedisServer replicaOf(RedisServer master) {
        String masterId = master.command("CLUSTER", "MYID");
        RedisServer[] found = {null};
        await("master " + master.port() + " to have a replica", () -> (found[0] = replicaIn(masterId)) != null);
        return found[0];
    }

    private RedisServer replicaIn(String masterId) {
        for (String line : liveNode().command("CLUSTER", "NODES").split("\n")) {
            String[] fields = line.split(" ");
            if (fields[2].contains("slave") && fields[3].equals(masterId)) {
                return byAddress(fields[1]);
            }
        }
        return null;
    }

    /**
     * Moves a slot from the master serving it to {@code target}, keys and all, as
     * {@code redis-cli --cluster reshard} does: the target imports, the source migrates, the keys
     * move in batches ({@code MIGRATE}: clients asking meanwhile are redirected with ASK), and the slot
     * is then assigned to the target on every master (clients hear MOVED).
     */
    public void migrateSlot(int slot, RedisServer target) {
        RedisServer source = masterOf(slot);
        if (source == target) {
            throw new IllegalArgumentException("slot " + slot + " is on " + target.port() + " already");
        }
        String sourceId = source.command("CLUSTER", "MYID");
        String targetId = target.command("CLUSTER", "MYID");
        expectOk(target.command("CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", sourceId));
        expectOk(source.command("CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", targetId));
        for (int batches = 0; ; batches++) {
            if (batches > 10_000) {
                throw new IllegalStateException("slot " + slot + " did not empty");
            }
            String keys = source.command("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), "100");
            if (keys.isEmpty() || keys.equals("*0")) {
                break;
            }
            List<String> command = new ArrayList<>(List.of("MIGRATE", "127.0.0.1", Integer.toString(target.port()), "",
                    "0", "5000", "REPLACE", "KEYS"));
            command.addAll(List.of(keys.split("\n")));
            String reply = source.command(command.toArray(String[]::new));
            if (!reply.equals("+OK") && !reply.equals("+NOKEY")) {
                throw new IllegalStateException("MIGRATE answered " + reply);
            }
        }
        for (RedisServer node : List.of(target, source)) {
            expectOk(node.command("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", targetId));
        }
        for (RedisServer node : nodes) {
            if (node != source && node != target && node.isRunning() && node.command("ROLE").startsWith("master")) {
                node.command("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", targetId);
            }
        }
    }

    private RedisServer liveNode() {
        return nodes.stream().filter(RedisServer::isRunning).findFirst().orElseThrow();
    }

    private RedisServer byAddress(String address) {
        int port = Integer.parseInt(address.substring(address.indexOf(':') + 1, address.indexOf('@')));
        return nodes.stream().filter(node -> node.port() == port).findFirst().orElseThrow();
    }

    private static void await(String what, java.util.function.BooleanSupplier done) {
        long deadline = System.nanoTime() + FORM_WAIT_MAX.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("waited " + FORM_WAIT_MAX + " for " + what);
            }
            LockSupport.parkNanos(50_000_000L);
        }
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
                return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + nodes.size());
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
