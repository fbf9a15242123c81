package io.stockguard.bench;

import io.stockguard.testkit.TcpProxy;
import io.stockguard.testkit.TestDatabase;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Where the servers are, seen from the service and the baselines. {@code local}: on this machine,
 * over loopback, where a database round trip costs a few microseconds. {@code remote}: the database
 * behind 1 ms of round trip and Redis behind 0.2 ms, which is how a shop runs them (a managed
 * database in another zone, Redis in the same rack). The delay comes from the testkit's latency
 * proxy in this JVM, so every contender pays the same network, and its relaying costs CPU on the
 * same cores: compare contenders within one run, not a remote run against a local one.
 */
enum Network {
    LOCAL(Duration.ZERO, Duration.ZERO),
    REMOTE(Duration.ofMillis(1), Duration.ofNanos(200_000));

    private final Duration databaseRoundTrip;
    private final Duration redisRoundTrip;

    Network(Duration databaseRoundTrip, Duration redisRoundTrip) {
        this.databaseRoundTrip = databaseRoundTrip;
        this.redisRoundTrip = redisRoundTrip;
    }

    static Network named(String name) {
        for (Network network : values()) {
            if (network.label().equals(name)) {
                return network;
            }
        }
        throw new IllegalArgumentException("--network is local or remote, not " + name);
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    String phrase() {
        return this == LOCAL ? "local servers (loopback)"
                : "remote servers: database round trip " + databaseRoundTrip.toNanos() / 1_000 + " µs, Redis "
                        + redisRoundTrip.toNanos() / 1_000 + " µs (latency proxy)";
    }

    /** The way to the servers for one run; closing it closes its proxies. */
    Links links() {
        return new Links(this);
    }

    /**
     * Addresses that reach a server across this network: the server's own on a local network, else a
     * latency proxy's, one per server port, made on first use.
     */
    static final class Links implements AutoCloseable {

        private final Network network;
        private final Map<Integer, TcpProxy> proxies = new HashMap<>();

        private Links(Network network) {
            this.network = network;
        }

        /** The same database, reached across the network. */
        synchronized TestDatabase database(TestDatabase database) {
            return network == LOCAL ? database
                    : database.atPort(proxy(database.port(), network.databaseRoundTrip).port());
        }

        /**
         * The Redis at {@code uri} ({@code redis://host:port}, optionally {@code /database}), reached
         * across the network.
         */
        synchronized String redis(String uri) {
            if (network == LOCAL) {
                return uri;
            }
            URI parsed = URI.create(uri);
            return "redis://127.0.0.1:" + proxy(parsed.getPort(), network.redisRoundTrip).port()
                    + (parsed.getPath() == null ? "" : parsed.getPath());
        }

        private TcpProxy proxy(int port, Duration roundTrip) {
            return proxies.computeIfAbsent(port, p -> {
                TcpProxy proxy = TcpProxy.to(p).withoutNagle();
                // The proxy delays each direction: half the round trip each way.
                proxy.delay(roundTrip.dividedBy(2));
                return proxy;
            });
        }

        @Override
        public synchronized void close() {
            proxies.values().forEach(TcpProxy::close);
            proxies.clear();
        }
    }
}
