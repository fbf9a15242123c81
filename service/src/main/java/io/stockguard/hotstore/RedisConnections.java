package io.stockguard.hotstore;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import java.io.File;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The Lettuce client the hot store talks through, made from {@code stockguard.redis.*}: the URL,
 * and what a deployment keeps out of it (the login, the Sentinels' own password, TLS
 * certificates), with the timeouts that let every call fail fast.
 */
final class RedisConnections {

    /** How often a cluster client reads the topology without being told it changed. */
    private static final Duration TOPOLOGY_REFRESH = Duration.ofSeconds(10);
    /**
     * How soon after one refresh a redirect or a lost connection may make the client read the
     * topology again. The client's default, 30 s, means that after a slot migration (whose
     * redirects use the refresh) a failover goes unseen until the periodic refresh, and commands
     * for the failed master's slots time out meanwhile. A refresh asks each node once.
     */
    private static final Duration TOPOLOGY_REFRESH_AFTER_TRIGGER = Duration.ofSeconds(1);

    private RedisConnections() {
    }

    static AbstractRedisClient client(RedisProperties properties) {
        SocketOptions socket = SocketOptions.builder().connectTimeout(properties.connectTimeout()).build();
        TimeoutOptions timeouts = TimeoutOptions.enabled(properties.commandTimeout());
        SslOptions ssl = ssl(properties.tls());
        if (properties.cluster()) {
            List<RedisURI> seeds = Arrays.stream(properties.url().split(",")).map(String::strip)
                    .map(seed -> uri(seed, properties)).toList();
            RedisClusterClient cluster = RedisClusterClient.create(seeds);
            ClusterClientOptions.Builder options = ClusterClientOptions.builder().socketOptions(socket)
                    .timeoutOptions(timeouts).disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers()
                            .adaptiveRefreshTriggersTimeout(TOPOLOGY_REFRESH_AFTER_TRIGGER)
                            .enablePeriodicRefresh(TOPOLOGY_REFRESH).build());
            if (ssl != null) {
                options.sslOptions(ssl);
            }
            cluster.setOptions(options.build());
            return cluster;
        }
        RedisClient standalone = RedisClient.create(uri(properties.url(), properties));
        // Commands to an unreachable Redis fail at once instead of queueing until it returns:
        // a reservation must get its answer, and the breaker its failure, within the timeout.
        ClientOptions.Builder options = ClientOptions.builder().socketOptions(socket).timeoutOptions(timeouts)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
        if (ssl != null) {
            options.sslOptions(ssl);
        }
        standalone.setOptions(options.build());
        return standalone;
    }

    /**
     * The URL with the login and the Sentinels' password put in: a setting given wins over the same
     * in the URL. A Sentinel URL's password is the data nodes' (Lettuce's reading); the Sentinels
     * get {@code sentinel-password}, or the same when it is not set.
     */
    static RedisURI uri(String url, RedisProperties properties) {
        RedisURI uri = RedisURI.create(url);
        if (properties.username() != null && !properties.username().isBlank()) {
            uri.setUsername(properties.username());
        }
        if (properties.password() != null && !properties.password().isEmpty()) {
            uri.setPassword(properties.password().toCharArray());
        }
        if (properties.sentinelPassword() != null && !properties.sentinelPassword().isEmpty()) {
            for (RedisURI sentinel : uri.getSentinels()) {
                sentinel.setPassword(properties.sentinelPassword().toCharArray());
            }
        }
        return uri;
    }

    /** The certificates of {@code stockguard.redis.tls}, or null to keep Lettuce's default (the JVM's trust). */
    private static SslOptions ssl(RedisProperties.Tls tls) {
        if (tls == null || !tls.given()) {
            return null;
        }
        SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider();
        if (tls.caCertificate() != null && !tls.caCertificate().isBlank()) {
            ssl.trustManager(new File(tls.caCertificate()));
        }
        if (tls.clientCertificate() != null && !tls.clientCertificate().isBlank()) {
            ssl.keyManager(new File(tls.clientCertificate()), new File(tls.clientKey()), null);
        }
        return ssl.build();
    }
}
