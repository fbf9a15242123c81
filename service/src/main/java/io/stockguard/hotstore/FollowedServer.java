package io.stockguard.hotstore;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Which Redis the instance follows now ({@link HotStore#server()}): what an operator checks after a
 * Sentinel promotion or a cluster failover, in the admin API and on the console's overview. Reads
 * only what the shipped ACL user may (INFO; the Sentinels' own SENTINEL get-master-addr-by-name).
 */
final class FollowedServer {

    private final RedisGateway redis;
    private final RedisProperties properties;

    FollowedServer(RedisGateway redis, RedisProperties properties) {
        this.redis = redis;
        this.properties = properties;
    }

    HotStore.Server describe() {
        if (properties.cluster()) {
            return cluster();
        }
        RedisURI uri = RedisConnections.uri(properties.url(), properties);
        boolean sentinel = !uri.getSentinels().isEmpty();
        List<String> problems = new ArrayList<>();
        String sentinelsSay = null;
        if (sentinel) {
            try {
                sentinelsSay = sentinelsMaster(uri);
            } catch (RuntimeException e) {
                problems.add("the Sentinels: " + e.getMessage());
            }
        }
        Map<String, String> info = Map.of();
        try {
            info = fields(redis.info("server") + "\n" + redis.info("replication"));
        } catch (RuntimeException e) {
            problems.add("the server: " + e.getMessage());
        }
        return new HotStore.Server(sentinel ? "sentinel" : "standalone", sentinel ? uri.getSentinelMasterId() : null,
                sentinelsSay, number(info.get("tcp_port")), info.get("role"), info.get("run_id"),
                info.get("master_replid"), number(info.get("connected_slaves")), List.of(),
                problems.isEmpty() ? null : String.join("; ", problems));
    }

    /** Asks the Sentinels (the first that answers, as Lettuce connects) for the master's address now. */
    private String sentinelsMaster(RedisURI uri) {
        RedisClient client = (RedisClient) redis.client();
        try (StatefulRedisSentinelConnection<String, String> sentinels = client.connectSentinel(uri)) {
            SocketAddress address = sentinels.sync().getMasterAddrByName(uri.getSentinelMasterId());
            return address instanceof InetSocketAddress inet ? inet.getHostString() + ":" + inet.getPort()
                    : String.valueOf(address);
        }
    }

    private HotStore.Server cluster() {
        List<String> nodes;
        try {
            nodes = ((RedisClusterClient) redis.client()).getPartitions().stream()
                    .map(node -> node.getUri().getHost() + ":" + node.getUri().getPort() + " "
                            + (node.is(RedisClusterNode.NodeFlag.UPSTREAM) ? "master" : "replica"))
                    .sorted().toList();
        } catch (RuntimeException e) {
            return new HotStore.Server("cluster", null, null, null, null, null, null, null, List.of(),
                    "the cluster's topology: " + e.getMessage());
        }
        return new HotStore.Server("cluster", null, null, null, null, null, null, null, nodes,
                nodes.isEmpty() ? "the client has not read the cluster's topology yet" : null);
    }

    private static Map<String, String> fields(String info) {
        return info.lines().filter(line -> line.contains(":") && !line.startsWith("#"))
                .collect(Collectors.toMap(line -> line.substring(0, line.indexOf(':')),
                        line -> line.substring(line.indexOf(':') + 1).strip(), (first, second) -> first));
    }

    private static Integer number(String value) {
        return value == null ? null : Integer.valueOf(value);
    }
}
