package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.testkit.RedisServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The history fence (history.lua) against real Redis servers: a SKU's copy is sold from, changed or
 * read only under the Redis history that loaded it. A replica promoted after it stopped
 * following its master, or a server started again from a snapshot, holds the same epoch but
 * another history: every script answers as if the SKU were not loaded, so the caller takes it over
 * before selling what the lost writes had already sold.
 */
class HistoryFenceScriptIT {

    @Test
    void aCopyStampedWithAnotherHistoryIsRefusedByEveryScriptThatReadsOrChangesIt() {
        try (ScriptFixture redis = new ScriptFixture()) {
            SkuId sku = ScriptFixture.sku();
            OrderId held = ScriptFixture.order();
            redis.load(sku, 10, 10);
            assertThat(redis.reserve(sku, held, 2, 0, false).status()).isEqualTo("OK");
            String history = redis.meta(sku, "h");
            assertThat(history).as("load.lua stamps the copy with the server's replication id").hasSize(40)
                    .isEqualTo(replicationId(redis.server));

            redis.server.command("HSET", Keys.meta(sku), "h", "0".repeat(40));

            assertThat(redis.reserve(sku, ScriptFixture.order(), 1, 0, false).values())
                    .containsExactly("NOT_LOADED", "HISTORY");
            assertThat(redis.confirm(sku, held).values()).containsExactly("NOT_LOADED", "HISTORY");
            assertThat(redis.release(sku, held, "CANCEL").values()).containsExactly("NOT_LOADED", "HISTORY");
            assertThat(redis.release(sku, held, "UNRESERVE").values()).containsExactly("NOT_LOADED", "HISTORY");
            assertThat(redis.stock(sku, "RESTOCK", "DELTA", 5, "", "fp", ScriptFixture.EPOCH, 100_000).values())
                    .containsExactly("NOT_LOADED", "HISTORY");
            assertThat(redis.setMode(sku, "FROZEN", 0).values()).containsExactly("NOT_LOADED", "HISTORY");
            assertThat(redis.limit(sku, 3).values()).containsExactly("NOT_LOADED", "HISTORY");
            assertThat(redis.snapshot(sku).values()).containsExactly("NOT_LOADED", "HISTORY");
            assertThat(redis.run(Script.LINE, List.of(Keys.meta(sku), Keys.line(sku, held)), List.of()).values())
                    .containsExactly("NOT_LOADED", "HISTORY");
            assertThat(redis.run(Script.OUTBOX, List.of(Keys.meta(sku), Keys.outbox(sku)), List.of("10")).values())
                    .containsExactly("NOT_LOADED", "HISTORY");
            assertThat(redis.restoreLine(sku, held, ScriptFixture.EPOCH, "RESERVED|0|2|1||").status())
                    .isEqualTo("STALE");
            assertThat(redis.field(sku, 0, 'a')).as("nothing changed").isEqualTo(8);
            assertThat(redis.field(sku, 0, 'r')).isEqualTo(2);
            assertThat(redis.outboxLength(sku)).isEqualTo(1);

            assertThat(redis.loadAt(sku, ScriptFixture.EPOCH + 1, 10, 10).status())
                    .as("a load under a new epoch replaces the copy and stamps this history").isEqualTo("LOADED");
            assertThat(redis.meta(sku, "h")).isEqualTo(history);
            assertThat(redis.reserve(sku, ScriptFixture.order(), 1, 0, false, ScriptFixture.EPOCH + 1).status())
                    .isEqualTo("OK");
        }
    }

    @Test
    void aReplicaPromotedAfterItStoppedFollowingHasAnotherHistory() {
        try (RedisServer master = RedisServer.start();
                RedisServer replica = RedisServer.start("--replicaof", "127.0.0.1", Integer.toString(master.port()));
                ScriptFixture onMaster = new ScriptFixture(master);
                ScriptFixture onReplica = new ScriptFixture(replica)) {
            SkuId sku = ScriptFixture.sku();
            onMaster.load(sku, 10);
            assertThat(onMaster.reserve(sku, ScriptFixture.order(), 1, 0, false).status()).isEqualTo("OK");
            assertThat(master.command("WAIT", "1", "5000")).isEqualTo(":1");

            assertThat(replica.command("REPLICAOF", "NO", "ONE")).isEqualTo("+OK");
            assertThat(onMaster.reserve(sku, ScriptFixture.order(), 4, 0, false).status())
                    .as("the old master sells on; the replica never hears of it").isEqualTo("OK");

            assertThat(onReplica.field(sku, 0, 'a')).as("the promoted replica believes in 9 units").isEqualTo(9);
            assertThat(onReplica.meta(sku, "epoch")).as("at the same epoch").isEqualTo("1");
            assertThat(onReplica.reserve(sku, ScriptFixture.order(), 9, 0, false).values())
                    .as("but it cannot sell them").containsExactly("NOT_LOADED", "HISTORY");
            assertThat(onMaster.reserve(sku, ScriptFixture.order(), 1, 0, false).status())
                    .as("the old master's own history is unchanged").isEqualTo("OK");
        }
    }

    @Test
    void aServerStartedFromASnapshotHasAnotherHistory() throws Exception {
        SkuId sku = ScriptFixture.sku();
        Path snapshot;
        int port;
        try (ScriptFixture before = new ScriptFixture()) {
            before.load(sku, 10);
            assertThat(before.reserve(sku, ScriptFixture.order(), 3, 0, false).status()).isEqualTo("OK");
            assertThat(before.server.command("SAVE")).isEqualTo("+OK");
            snapshot = before.server.directory().resolve("dump.rdb");
            port = before.server.port();
            before.server.kill();
            try (RedisServer restarted = RedisServer.startFromSnapshot(port, snapshot);
                    ScriptFixture after = new ScriptFixture(restarted)) {
                assertThat(after.field(sku, 0, 'a')).as("the snapshot's copy").isEqualTo(7);
                assertThat(after.reserve(sku, ScriptFixture.order(), 1, 0, false).values())
                        .containsExactly("NOT_LOADED", "HISTORY");
            }
        }
    }

    private static String replicationId(RedisServer server) {
        String info = server.command("INFO", "replication");
        return info.lines().filter(line -> line.startsWith("master_replid:")).findFirst().orElseThrow()
                .substring("master_replid:".length()).strip();
    }

    static {
        // The breaker of a fixture's gateway is its own; nothing here depends on it.
        CircuitBreaker.ofDefaults("history-fence");
    }
}
