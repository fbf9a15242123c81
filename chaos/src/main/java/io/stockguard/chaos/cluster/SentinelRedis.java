package io.stockguard.chaos.cluster;

import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TcpProxy;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The Redis of a Redis tier deployed as shops run it: a master, a replica and a Redis Sentinel
 * that promotes the replica when the master fails. The service follows the master through the
 * Sentinel ({@code redis-sentinel://}); a failover changes the master's address. The replica
 * follows the master through a TCP proxy, so that it can be cut off and miss the last writes
 * before the master dies: the post-mortem's failover, as Sentinel itself would make it.
 */
public final class SentinelRedis implements AutoCloseable {

    public static final String MASTER_NAME = "stockguard";
    /** How long the Sentinel waits for an answer before it calls the master down. */
    private static final Duration DOWN_AFTER = Duration.ofSeconds(1);
    private static final Duration PROMOTION_WAIT_MAX = Duration.ofSeconds(30);

    private RedisServer master;
    private RedisServer replica;
    private final TcpProxy link;
    private final RedisServer sentinel;
    private int oldMasterPort = -1;

    private SentinelRedis(RedisServer master, RedisServer replica, TcpProxy link, RedisServer sentinel) {
        this.master = master;
        this.replica = replica;
        this.link = link;
        this.sentinel = sentinel;
    }

    static SentinelRedis start() {
        RedisServer master = RedisServer.start();
        TcpProxy link = TcpProxy.to(master.port());
        RedisServer replica = RedisServer.start("--replicaof", "127.0.0.1", Integer.toString(link.port()));
        RedisServer sentinel = RedisServer.startSentinel(MASTER_NAME, master.port(), DOWN_AFTER);
        return new SentinelRedis(master, replica, link, sentinel);
    }

    /** The address the service uses: the Sentinel, which names the master. */
    String uri() {
        return "redis-sentinel://127.0.0.1:" + sentinel.port() + "#" + MASTER_NAME;
    }

    /** The replica stops receiving the master's writes (its link is cut); the master goes on. */
    public void cutReplicaOff() {
        link.cut();
    }

    /** {@code kill -9} of the master: the Sentinel will promote the replica, which missed the writes since the cut. */
    public void killMaster() {
        oldMasterPort = master.port();
        master.kill();
    }

    /**
     * Waits (bounded) until the Sentinel names the replica as the master; the old master then
     * starts again empty on its port, and the Sentinel makes it the new master's replica.
     */
    public void awaitPromotionAndRestoreAReplica() {
        long deadline = System.nanoTime() + PROMOTION_WAIT_MAX.toNanos();
        while (!sentinel.command("INFO", "sentinel").contains("address=127.0.0.1:" + replica.port() + ",")) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the Sentinel did not promote the replica within "
                        + PROMOTION_WAIT_MAX);
            }
            LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
        }
        RedisServer promoted = replica;
        replica = RedisServer.start(oldMasterPort);
        master = promoted;
    }

    @Override
    public void close() {
        sentinel.close();
        link.close();
        master.close();
        replica.close();
    }
}
