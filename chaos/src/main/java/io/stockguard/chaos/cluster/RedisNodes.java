package io.stockguard.chaos.cluster;

import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TcpProxy;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The Redis of the Redis tiers: a master with a replica, reached by the service through a TCP
 * proxy (so that latency and dropped connections can be injected). The master's address never
 * changes: a failover starts the new master on the same port, as a Sentinel-managed virtual
 * address or a DNS switch would look to the service.
 */
public final class RedisNodes implements AutoCloseable {

    private final int masterPort;
    private RedisServer master;
    private RedisServer replica;
    private final TcpProxy proxy;

    private RedisNodes(RedisServer master, RedisServer replica, TcpProxy proxy) {
        this.masterPort = master.port();
        this.master = master;
        this.replica = replica;
        this.proxy = proxy;
    }

    static RedisNodes start() {
        RedisServer master = RedisServer.start();
        RedisServer replica = startReplicaOf(master.port());
        return new RedisNodes(master, replica, TcpProxy.to(master.port()));
    }

    /** The address the service uses (the proxy). */
    String uri() {
        return proxy.uri();
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

    /** Every byte to and from Redis arrives {@code delay} later; zero ends it. */
    public void delay(Duration delay) {
        proxy.delay(delay);
    }

    /** Drops every open connection to Redis (the service reconnects). */
    public void dropConnections() {
        proxy.cut();
        proxy.restore();
    }

    private static RedisServer startReplicaOf(int masterPort) {
        return RedisServer.start("--replicaof", "127.0.0.1", Integer.toString(masterPort));
    }

    @Override
    public void close() {
        proxy.close();
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
