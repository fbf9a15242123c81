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
 * A repeat of an order the hot store has lost, while Kafka does not answer. Its answer comes from
 * the database, once the database has applied everything Kafka holds for the order's SKUs; with
 * Kafka paused nobody can say whether it has. The chaos suite found such a repeat answered
 * {@code 500 INTERNAL} (Kafka's admin client timed out asking for the offsets, and the failure
 * reached the client): the answer is a retry ({@code 503 UNAVAILABLE}, nothing applied), and once
 * Kafka is back, the order's own answer.
 */
class OrdersRestoredWhileKafkaIsPausedIT {

    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void aRepeatOfALostOrderIsAskedToRetryWhileKafkaIsPausedAndAnsweredOnceItIsBack() {
        try (RedisServer redis = RedisServer.start();
                KafkaCluster kafka = KafkaCluster.single();
                RunningService service = RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        redis.uri(), kafka.bootstrapServers(), Map.of())) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("kafka-paused");
            assertThat(client.putSku(sku, 10, 1).status()).isEqualTo(201);
            String order = Ids.order("kafka-paused");
            assertThat(client.reserve(order, new StockGuardClient.Line(sku, 2)).status()).isEqualTo(201);
            assertThat(client.cancel(order).status()).isEqualTo(200);
            service.awaitJournalApplied(sku);
            // Redis loses the SKU and the order (a failover to a replica that had neither): the next
            // reservation loads the SKU again, and for a while a repeat of an order Redis has no line
            // of is looked up in the database, whose copy answers it.
            assertThat(redis.command("DEL", "sg:{" + sku + "}:m", "sg:{" + sku + "}:b", "sg:{" + sku + "}:x",
                    "sg:{o:" + order + "}", "sg:{" + sku + "}:o:" + order)).isNotEqualTo(":0");
            await().atMost(BOUND).pollInterval(Duration.ofMillis(200)).until(() -> client.reserve(
                    Ids.order("reload"), new StockGuardClient.Line(sku, 1)).status() == 201
                    && redis.command("EXISTS", "sg:{" + sku + "}:m").equals(":1"));

            kafka.pauseAll();
            try {
                StockGuardClient.Response paused = client.reserve(order, new StockGuardClient.Line(sku, 2));
                assertThat(paused.status()).as("%s", paused.raw().body()).isEqualTo(503);
                assertThat(paused.code()).isEqualTo("UNAVAILABLE");
            } finally {
                kafka.resumeAll();
            }

            await().atMost(BOUND).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                StockGuardClient.Response repeat = client.reserve(order, new StockGuardClient.Line(sku, 2));
                assertThat(repeat.status()).as("%s", repeat.raw().body()).isEqualTo(409);
                assertThat(repeat.code()).isEqualTo("ORDER_CANCELLED");
            });
            service.awaitJournalApplied(sku);
            assertThat(service.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                    order)).isEqualTo("CANCELLED");
            Long reloadsHeld = service.jdbc().queryForObject("SELECT COUNT(*) FROM reservation WHERE order_id LIKE "
                    + "'reload-%' AND state = 'RESERVED'", Long.class);
            StockGuardClient.Response stock = client.sku(sku);
            assertThat(stock.number("reserved")).as("the reloads' orders only, nothing of the repeats: %s",
                    stock.raw().body()).isEqualTo(reloadsHeld);
            assertThat(stock.number("available")).isEqualTo(10 - reloadsHeld);
            assertThat(stock.number("sold")).isZero();
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        }
    }
}
