package io.stockguard.bench.stockguard;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.stockguard.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.concurrent.locks.LockSupport;

/**
 * The Redis a StockGuard hot store runs on in the bench: a logical database of the bench's shared
 * server (the one the Redis contenders and the ceiling use), or a master with replicas of its own,
 * started on first use, so that replication never touches the other contenders' runs.
 */
public final class HotStoreRedis implements AutoCloseable {

    /** Logical database of the shared server: the Redis contenders flush database 0 before each run. */
    private static final int SHARED_DATABASE = 1;
    /** Longest wait for replicas to finish their initial sync or to catch up before a run. */
    private static final Duration REPLICA_WAIT_MAX = Duration.ofSeconds(30);

    private final String sharedServerUri;
    private final int sharedDatabase;
    private final int replicaCount;
    private final UnaryOperator<String> reach;
    private final List<RedisServer> started = new ArrayList<>();
    private String url;
    private RedisClient client;
    private boolean closed;

    private HotStoreRedis(String sharedServerUri, int sharedDatabase, int replicaCount,
            UnaryOperator<String> reach) {
        this.sharedServerUri = sharedServerUri;
        this.sharedDatabase = sharedDatabase;
        this.replicaCount = replicaCount;
        this.reach = reach;
    }

    /** Database 1 of the bench's shared server, e.g. {@code redis://127.0.0.1:6379}. */
    public static HotStoreRedis shared(String serverUri) {
        return shared(serverUri, SHARED_DATABASE);
    }

    /**
     * Logical database {@code database} (not 0, the Redis contenders') of the bench's shared server:
     * each StockGuard contender on the shared server needs its own, since their services keep
     * running side by side with the same SKUs.
     */
    public static HotStoreRedis shared(String serverUri, int database) {
        if (database < 1 || database > 15) {
            throw new IllegalArgumentException("database must be between 1 and 15, was " + database);
        }
        return new HotStoreRedis(serverUri, database, 0, UnaryOperator.identity());
    }

    /** A master with {@code replicas} replicas ({@code --replicaof}), started on first use. */
    public static HotStoreRedis replicated(int replicas) {
        return replicated(replicas, UnaryOperator.identity());
    }

    /**
     * As {@link #replicated(int)}, the master reached at the address {@code reach} gives for its own
     * (a latency proxy's, when the bench plays a remote network).
     */
    public static HotStoreRedis replicated(int replicas, UnaryOperator<String> reach) {
        if (replicas < 1 || replicas > 5) {
            throw new IllegalArgumentException("replicas must be between 1 and 5, was " + replicas);
        }
        return new HotStoreRedis(null, 0, replicas, reach);
    }

    public int replicaCount() {
        return replicaCount;
    }

    /** The URL the service connects to; starts the servers if they are the contender's own. */
    public synchronized String url() {
        if (closed) {
            throw new IllegalStateException("the hot store's Redis is closed: it is not started again");
        }
        if (url == null) {
            url = sharedServerUri != null ? sharedServerUri + "/" + sharedDatabase : startReplicated();
            client = RedisClient.create(url);
            client.setDefaultTimeout(REPLICA_WAIT_MAX.plusSeconds(5));
        }
        return url;
    }

    private String startReplicated() {
        RedisServer master = RedisServer.start();
        started.add(master);
        for (int i = 0; i < replicaCount; i++) {
            started.add(RedisServer.start("--replicaof", "127.0.0.1", Integer.toString(master.port())));
        }
        awaitOnlineReplicas(master);
        return reach.apply(master.uri());
    }

    /** Replicas are online once their initial sync is done; before that WAIT would time out. */
    private void awaitOnlineReplicas(RedisServer master) {
        long deadline = System.nanoTime() + REPLICA_WAIT_MAX.toNanos();
        while (System.nanoTime() < deadline) {
            String replication = master.command("INFO", "replication");
            long online = replication.lines().filter(line -> line.startsWith("slave") && line.contains("state=online"))
                    .count();
            if (online >= replicaCount) {
                return;
            }
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
        }
        throw new IllegalStateException(replicaCount + " replicas of " + master.uri() + " not online within "
                + REPLICA_WAIT_MAX);
    }

    /** Empties the hot store (scripts stay cached), and waits until the replicas have done so too. */
    public void flush() {
        try (StatefulRedisConnection<String, String> connection = client().connect()) {
            connection.sync().flushdb();
            awaitReplicas(connection);
        }
    }

    /** Waits until every replica has every write made so far: a run starts with replicas in step. */
    public void awaitReplicas() {
        if (replicaCount == 0) {
            return;
        }
        try (StatefulRedisConnection<String, String> connection = client().connect()) {
            connection.sync().set("bench:replicas-in-step", Long.toString(System.nanoTime()));
            awaitReplicas(connection);
        }
    }

    private void awaitReplicas(StatefulRedisConnection<String, String> connection) {
        if (replicaCount == 0) {
            return;
        }
        long reached = connection.sync().waitForReplication(replicaCount, REPLICA_WAIT_MAX.toMillis());
        if (reached < replicaCount) {
            throw new IllegalStateException("only " + reached + " of " + replicaCount + " replicas in step within "
                    + REPLICA_WAIT_MAX);
        }
    }

    /** How many times the server has run {@code command} since it started (INFO commandstats). */
    public long calls(String command) {
        try (StatefulRedisConnection<String, String> connection = client().connect()) {
            String prefix = "cmdstat_" + command.toLowerCase(java.util.Locale.ROOT) + ":calls=";
            return connection.sync().info("commandstats").lines().filter(line -> line.startsWith(prefix))
                    .mapToLong(line -> Long.parseLong(line.substring(prefix.length(), line.indexOf(',')))).sum();
        }
    }

    private synchronized RedisClient client() {
        url();
        return client;
    }

    /** Stops what this started; safe to call again, and no server is started after it. */
    @Override
    public synchronized void close() {
        closed = true;
        if (client != null) {
            client.shutdown();
            client = null;
        }
        for (RedisServer server : started.reversed()) {
            server.close();
        }
        started.clear();
        url = null;
    }
}
