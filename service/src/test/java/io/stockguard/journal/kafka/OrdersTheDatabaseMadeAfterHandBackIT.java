package io.stockguard.journal.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * I3 across a hand-back on the full tier. While Redis was paused the database took the SKU over
 * and sold an order itself; once Redis answers again the SKU goes back to it, under a new epoch,
 * with the same Redis history. The order the database made has no record in Redis, yet a repeat
 * of it must be answered as the replay it is (200, the order's state), not sold a second time.
 * The chaos suite's default profile found this (full tier, two instances, seeds 2 and 3: a repeat
 * of an order confirmed during redis-pause or redis-latency answered 201 RESERVED).
 */
class OrdersTheDatabaseMadeAfterHandBackIT {

    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void aRepeatOfAnOrderTheDatabaseSoldIsAReplayAfterRedisTakesTheSkuBack() {
        TestDatabase database = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        try (RedisServer redis = RedisServer.start();
                KafkaCluster kafka = KafkaCluster.single();
                RunningService service = RunningService.startFull(database, redis.uri(), kafka.bootstrapServers(),
                        Map.of("stockguard.redis.command-timeout", "300ms",
                                "stockguard.redis.takeover.delay", "2s",
                                "stockguard.redis.takeover.reload-after", "1s",
                                "stockguard.redis.breaker.open-for", "1s"))) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("hand-back");
            assertThat(client.putSku(sku, 100, 2).status()).isEqualTo(201);
            String first = Ids.order("hand-back");
            assertThat(client.reserve(first, new StockGuardClient.Line(sku, 1)).status()).isEqualTo(201);
            String epochBefore = redis.command("HGET", "sg:{" + sku + "}:m", "epoch");

            // Redis stops answering. Orders are tried until the database sells one (it has taken the
            // SKU over); only then is the order under test sent, so none of its attempts waits in a
            // paused Redis's socket to be run when it wakes.
            redis.pause();
            String databaseMade = Ids.order("hand-back");
            try {
                await().atMost(BOUND).pollInterval(Duration.ofMillis(200)).until(() -> client.reserve(
                        Ids.order("while-paused"), new StockGuardClient.Line(sku, 1)).status() == 201);
                StockGuardClient.Response made = client.reserve(databaseMade, new StockGuardClient.Line(sku, 1));
                assertThat(made.status()).as("sold by the database: %s", made.raw().body()).isEqualTo(201);
                assertThat(client.confirm(databaseMade).ok()).isTrue();
            } finally {
                redis.resume();
            }
            assertThat(redis.command("EXISTS", "sg:{o:" + databaseMade + "}")).as("Redis has no record of it")
                    .isEqualTo(":0");

            // Redis is back: a new order loads the SKU into it again, under a new epoch.
            String later = Ids.order("hand-back");
            await().atMost(BOUND).pollInterval(Duration.ofMillis(200)).until(() -> {
                int status = client.reserve(later, new StockGuardClient.Line(sku, 1)).status();
                return (status == 201 || status == 200) && redis.command("EXISTS", "sg:{o:" + later + "}").equals(":1");
            });
            assertThat(redis.command("HGET", "sg:{" + sku + "}:m", "epoch")).as("the SKU's epoch in Redis")
                    .isNotEqualTo(epochBefore);

            StockGuardClient.Response repeat = client.reserve(databaseMade, new StockGuardClient.Line(sku, 1));
            assertThat(repeat.status()).as("a repeat of the order the database sold: %s", repeat.raw().body())
                    .isEqualTo(200);
            assertThat(repeat.text("state")).isEqualTo("CONFIRMED");

            service.awaitJournalApplied(sku);
            assertThat(client.sku(sku).number("sold")).as("sold once: the order the database made").isEqualTo(1);
            assertThat(database.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                    databaseMade)).isEqualTo("CONFIRMED");
            LedgerChecks.assertCountersMatchJournal(database.jdbc(), sku);
        }
    }
}
