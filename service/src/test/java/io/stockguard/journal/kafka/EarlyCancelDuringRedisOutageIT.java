package io.stockguard.journal.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RedisOutage;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A cancel that arrives before its reservation (I7) while Redis is unreachable, in the full tier.
 * Its tombstone must be where the reservation will be made: the hot store, once Redis is back, and
 * the database has no say then (it learns of the hot store's sales from Kafka, later). A tombstone
 * the database alone kept was not seen by the hot store, which then sold the cancelled order; and
 * the database, applying that sale onto its tombstone, drifted from Redis for good (chaos, full
 * tier, seed 81). So the cancel is answered "unavailable, retry" until Redis is back.
 */
class EarlyCancelDuringRedisOutageIT {

    @Test
    void aCancelOfAnOrderNotSeenWaitsForRedisAndTheLateReserveIsRefused() {
        try (RedisServer redis = RedisServer.start();
                KafkaCluster kafka = KafkaCluster.single();
                RunningService service = RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        redis.uri(), kafka.bootstrapServers(), RedisOutage.QUICK_BREAKER)) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("early-cancel");
            client.putSku(sku, 10);
            assertThat(client.reserve(Ids.order("early-cancel-load"), new Line(sku, 1)).status()).isEqualTo(201);

            redis.kill();
            String order = Ids.order("early-cancel");
            StockGuardClient.Response duringOutage = client.cancel(order);
            assertThat(duringOutage.status()).as("%s", duringOutage.body()).isEqualTo(503);
            assertThat(duringOutage.code()).isEqualTo("UNAVAILABLE");
            assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM reservation WHERE order_id = ?",
                    Integer.class, order)).as("no tombstone the hot store would not see").isZero();

            redis.restart();
            StockGuardClient.Response[] cancelled = new StockGuardClient.Response[1];
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                cancelled[0] = client.cancel(order);
                return cancelled[0].status() != 503;
            });
            assertThat(cancelled[0].status()).as("%s", cancelled[0].body()).isEqualTo(200);
            assertThat(cancelled[0].text("state")).isEqualTo("CANCELLED");

            StockGuardClient.Response late = RedisOutage.awaitAnswer(() -> client.reserve(order, new Line(sku, 2)));
            assertThat(late.code()).as("%s", late.body()).isEqualTo("ORDER_CANCELLED");
            assertThat(client.sku(sku).number("reserved")).isEqualTo(1);
            service.awaitJournalApplied(sku);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        }
    }
}
