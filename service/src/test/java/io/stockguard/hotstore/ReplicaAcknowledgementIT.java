package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Replica acknowledgement ({@code stockguard.redis.wait-replicas=1}) stays live: with the replica
 * there, changes are answered from Redis and one WAIT serves many; with the replica gone, every
 * change still gets a definite answer, the SKU is sold by the database, and it goes back to Redis
 * once a replica is connected again. Without the setting (the default) health says the history
 * fence is the protection in force.
 */
class ReplicaAcknowledgementIT {

    private static final int SUPPLY = 400;

    @Test
    void withTheReplicaGoneChangesAreAnsweredAndTheDatabaseSellsUntilItIsBack() {
        try (RedisServer master = RedisServer.start();
                RedisServer replica = RedisServer.start("--replicaof", "127.0.0.1", Integer.toString(master.port()));
                RunningService service = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        master.uri(), false, Map.of("stockguard.redis.wait-replicas", "1",
                                "stockguard.redis.takeover.reload-after", "1s"))) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("replica");
            client.putSku(sku, SUPPLY, 2);
            await().atMost(Duration.ofSeconds(10)).until(() -> connectedReplicas(master) == 1);
            int sold = 0;
            for (int i = 0; i < 20; i++) {
                assertThat(client.reserve(Ids.order("with-replica"), new StockGuardClient.Line(sku, 1)).status())
                        .isEqualTo(201);
                sold++;
            }
            assertThat(owner(service, sku)).as("sold from Redis while the replica is there").isEqualTo("HOT");
            assertThat(service.metric("stockguard_redis_replica_short_waits_total", "")).isZero();
            assertThat(health(service).path("components").path("hotStore").path("details")
                    .path("replicaAcknowledgement").asString()).startsWith("every change waits for 1 replica");

            replica.close();
            await().atMost(Duration.ofSeconds(30)).until(() -> connectedReplicas(master) == 0);
            for (int i = 0; i < 40; i++) {
                StockGuardClient.Response answer = client.reserve(Ids.order("without-replica"),
                        new StockGuardClient.Line(sku, 1));
                assertThat(answer.status()).as("a definite answer: %s", answer.body()).isEqualTo(201);
                sold++;
            }
            assertThat(owner(service, sku)).as("the database sells while Redis has no replica").isEqualTo("DATABASE");
            assertThat(health(service).path("components").path("hotStore").path("details").path("replicasMissing")
                    .asBoolean()).isTrue();

            try (RedisServer again = RedisServer.start("--replicaof", "127.0.0.1", Integer.toString(master.port()))) {
                await().atMost(Duration.ofSeconds(30)).until(() -> connectedReplicas(master) == 1);
                int[] more = {0};
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    assertThat(client.reserve(Ids.order("replica-back"), new StockGuardClient.Line(sku, 1)).status())
                            .isEqualTo(201);
                    more[0]++;
                    return "HOT".equals(owner(service, sku));
                });
                sold += more[0];
                assertThat(health(service).path("components").path("hotStore").path("details")
                        .path("replicasMissing").asBoolean()).isFalse();
            }
            service.awaitJournalApplied(sku);
            LedgerChecks.assertNoOversell(service.jdbc(), sku, SUPPLY);
            assertThat(service.jdbc().queryForObject("SELECT SUM(reserved) FROM stock_bucket WHERE sku_id = ?",
                    Long.class, sku)).as("every acknowledged reservation, once").isEqualTo(sold);
        }
    }

    @Test
    void byDefaultHealthNamesTheHistoryFenceAndNoReplicaAcknowledgement() {
        try (RedisServer redis = RedisServer.start();
                RunningService service = RunningService.startRedis(redis.uri(), false)) {
            StockGuardClient.Response anonymous = service.anonymous().send("GET", "/actuator/health", null);
            assertThat(anonymous.body().path("components").path("hotStore").path("status").asString())
                    .isEqualTo("UP");
            assertThat(anonymous.body().path("components").path("hotStore").has("details"))
                    .as("details only for callers with a key").isFalse();
            var details = health(service).path("components").path("hotStore").path("details");
            assertThat(details.path("historyFence").asString()).startsWith("on:");
            assertThat(details.path("replicaAcknowledgement").asString()).startsWith("off");
        }
    }

    private static tools.jackson.databind.JsonNode health(RunningService service) {
        return service.admin().send("GET", "/actuator/health", null).body();
    }

    private static String owner(RunningService service, String sku) {
        return service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?", String.class, sku);
    }

    private static int connectedReplicas(RedisServer master) {
        return master.command("INFO", "replication").lines().filter(l -> l.startsWith("connected_slaves:"))
                .map(l -> Integer.parseInt(l.substring("connected_slaves:".length()).strip())).findFirst().orElse(0);
    }
}
