package io.stockguard.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Reads the hot store behind the service's back (standalone or Cluster) and checks it against the
 * database: the same counters, and an exact drift R - D - (J - A) of zero in every bucket.
 */
public final class HotStoreChecks implements AutoCloseable {

    private final AutoCloseable client;
    private final RedisClusterCommands<String, String> redis;

    private HotStoreChecks(AutoCloseable client, RedisClusterCommands<String, String> redis) {
        this.client = client;
        this.redis = redis;
    }

    public static HotStoreChecks standalone(String uri) {
        RedisClient client = RedisClient.create(uri);
        return new HotStoreChecks(client::shutdown, client.connect().sync());
    }

    public static HotStoreChecks cluster(String uris) {
        RedisClusterClient client = RedisClusterClient.create(Arrays.stream(uris.split(",")).map(RedisURI::create)
                .toList());
        return new HotStoreChecks(client::shutdown, client.connect().sync());
    }

    public RedisClusterCommands<String, String> redis() {
        return redis;
    }

    /**
     * Writes an order's record by hand, as order.lua would have under the server's history now (a
     * record without it is one of another history, and is not believed).
     */
    public void writeOrderRecord(String order, java.util.Map<String, String> fields) {
        java.util.Map<String, String> stamped = new java.util.HashMap<>(fields);
        stamped.put("h", redis.info("replication").lines().filter(l -> l.startsWith("master_replid:"))
                .findFirst().orElseThrow().substring("master_replid:".length()).strip());
        redis.hset("sg:{o:" + order + "}", stamped);
    }

    /**
     * Waits until every change of the SKU made in Redis has been applied to the database, for as
     * long as the SKU's outbox keeps shrinking: 30 s without a new low fails the wait.
     */
    public void awaitDrained(String sku) {
        Progress.awaitZero("the hot store's outbox of " + sku + " to drain", () -> redis.xlen("sg:{" + sku + "}:x"),
                Duration.ofSeconds(30));
    }

    /**
     * Waits until the SKU in Redis {@link #matchesDatabase matches the database}, for as long as
     * its outbox keeps shrinking (a rebuild drains it first): 30 s without a new low fails the wait.
     */
    public void awaitMatchesDatabase(JdbcTemplate jdbc, String sku) {
        Progress.awaitWhileShrinking("the hot store's " + sku + " to match the database",
                () -> matchesDatabase(jdbc, sku), () -> redis.xlen("sg:{" + sku + "}:x"), Duration.ofSeconds(30));
    }

    public long field(String sku, int bucket, char field) {
        String value = redis.hget("sg:{" + sku + "}:b", bucket + ":" + field);
        return value == null ? 0 : Long.parseLong(value);
    }

    /** Redis and the database hold the same counters, and the exact drift of every bucket is 0. */
    public void assertMatchesDatabase(JdbcTemplate jdbc, String sku) {
        Map<Integer, LedgerChecks.Counters> database = LedgerChecks.buckets(jdbc, sku);
        assertThat(database).isNotEmpty();
        database.forEach((bucket, counters) -> {
            assertThat(new LedgerChecks.Counters(field(sku, bucket, 'a'), field(sku, bucket, 'r'),
                    field(sku, bucket, 's'))).as("Redis counters of %s bucket %d", sku, bucket).isEqualTo(counters);
            long appliedSum = jdbc.queryForObject("SELECT applied_sum FROM stock_bucket WHERE sku_id = ? AND bucket = ?",
                    Long.class, sku, bucket);
            long drift = field(sku, bucket, 'a') - counters.available() - (field(sku, bucket, 'j') - appliedSum);
            assertThat(drift).as("exact drift of %s bucket %d", sku, bucket).isZero();
        });
    }

    /**
     * The same as {@link #assertMatchesDatabase} as a condition to wait for: the hot store is
     * loaded, drained, and holds the database's counters with an exact drift of 0 in every bucket,
     * and the database has it as the SKU's owner.
     */
    public boolean matchesDatabase(JdbcTemplate jdbc, String sku) {
        if (redis.exists("sg:{" + sku + "}:m") == 0 || redis.xlen("sg:{" + sku + "}:x") != 0) {
            return false;
        }
        String owner = jdbc.queryForObject("SELECT owner FROM sku WHERE sku_id = ?", String.class, sku);
        Long epoch = jdbc.queryForObject("SELECT hot_epoch FROM sku WHERE sku_id = ?", Long.class, sku);
        if (!"HOT".equals(owner) || !String.valueOf(epoch).equals(redis.hget("sg:{" + sku + "}:m", "epoch"))) {
            return false;
        }
        try {
            assertMatchesDatabase(jdbc, sku);
            return true;
        } catch (AssertionError e) {
            return false;
        }
    }

    public String mode(String sku) {
        return redis.hget("sg:{" + sku + "}:m", "mode");
    }

    @Override
    public void close() throws Exception {
        client.close();
    }
}
