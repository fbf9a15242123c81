package io.stockguard.chaos.cluster;

import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TcpProxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Redis of the Redis tiers: a master with a replica, reached by each service instance through
 * a TCP proxy of its own (so that latency and dropped connections can be injected, and one
 * instance cut off from Redis while the others still reach it). The master's address never
 * changes: a failover starts the new master on the same port, as a Sentinel-managed virtual
 * address or a DNS switch would look to the service.
 */
public final class RedisNodes implements AutoCloseable {

    private final int masterPort;
    private RedisServer master;
    private RedisServer replica;
    /** One proxy per instance, by the instance's name. */
    private final Map<String, TcpProxy> proxies = new ConcurrentHashMap<>();

    private RedisNodes(RedisServer master, RedisServer replica) {
        this.masterPort = master.port();
        this.master = master;
        this.replica = replica;
    }

    static RedisNodes start() {
        RedisServer master = RedisServer.start();
        RedisServer replica = startReplicaOf(master.port());
        return new RedisNodes(master, replica);
    }

    /** The address instance {@code instance} uses: a proxy of its own in front of the master. */
    String uriFor(String instance) {
        return proxies.computeIfAbsent(instance, name -> TcpProxy.to(masterPort)).uri();
    }

    /** A command run on the master as it is now, as redis-cli would; its reply as text. */
    public String command(String... parts) {
        return master.command(parts);
    }

    /** {@code kill -9} of the master; it comes back empty with {@link #restartEmpty()}. */
    public void killMaster() {
        master.kill();
    }

    /** The master starts again with nothing (no persistence): every key is gone. */
    public void restartEmpty() {
        master.restart();
    }

    public void pauseMaster() {
        master.pause();
    }

    public void resumeMaster() {
        master.resume();
    }

    /**
     * The replica stops replicating: from now on it misses the master's writes. The first half
     * of a failover that loses the last writes.
     */
    public void cutReplicaOff() {
        String reply = replica.command("REPLICAOF", "NO", "ONE");
        if (!reply.startsWith("+OK")) {
            throw new IllegalStateException("REPLICAOF NO ONE: " + reply);
        }
    }

    /**
     * The second half, in two steps: the replica's data is saved and the master killed; then
     * {@link #promoteReplica()} starts a new master on the master's address from that data
     * (which lacks everything written since the replica was cut off).
     */
    public void killMasterKeepingReplicaData() {
        String saved = replica.command("SAVE");
        if (!saved.startsWith("+OK")) {
            throw new IllegalStateException("SAVE on the replica: " + saved);
        }
        master.kill();
    }

    /** The replica's saved data becomes the master, on the master's address; a new replica follows it. */
    public void promoteReplica() {
        Path snapshot = replica.directory().resolve("dump.rdb");
        master = RedisServer.startFromSnapshot(masterPort, snapshot);
        replica.kill();
        replica = startReplicaOf(masterPort);
    }

    /** Every byte to and from Redis arrives {@code delay} later, for every instance; zero ends it. */
    public void delay(Duration delay) {
        proxies.values().forEach(proxy -> proxy.delay(delay));
    }

    /** Drops every open connection to Redis (the service reconnects). */
    public void dropConnections() {
        proxies.values().forEach(proxy -> {
            proxy.cut();
            proxy.restore();
        });
    }

    /**
     * Instance {@code instance} can no longer reach Redis (its connections dropped, new ones
     * refused) while every other instance still does, until {@link #reconnect(String)}.
     */
    public void partition(String instance) {
        proxy(instance).cut();
    }

    public void reconnect(String instance) {
        proxy(instance).restore();
    }

    private TcpProxy proxy(String instance) {
        TcpProxy proxy = proxies.get(instance);
        if (proxy == null) {
            throw new IllegalArgumentException("no instance " + instance + " reaches Redis here");
        }
        return proxy;
    }

    private static RedisServer startReplicaOf(int masterPort) {
        return RedisServer.start("--replicaof", "127.0.0.1", Integer.toString(masterPort));
    }

    @Override
    public void close() {
        proxies.values().forEach(TcpProxy::close);
        if (master.isRunning()) {
            try {
                master.resume();
            } catch (RuntimeException notPaused) {
                // it was not paused
            }
        }
        master.close();
        replica.close();
    }
}
