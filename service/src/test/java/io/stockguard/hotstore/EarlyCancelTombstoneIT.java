package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testkit.RedisServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An early cancel's tombstone (I7) that reached Redis but not the database: its request died in
 * between (chaos, standard tier, seed 82: Redis failed over mid-request, the retry found the
 * tombstone and answered it as a replay). The retry writes the database's copy, so the order reads
 * CANCELLED on every path instead of 404, and a late reserve is refused.
 */
class EarlyCancelTombstoneIT {

    @Test
    void aRetriedEarlyCancelMakesTheDatabasesTombstoneTooWhenOnlyRedisHadIt() throws Exception {
        try (RedisServer redis = RedisServer.start();
                RunningService service = RunningService.startRedis(redis.uri(), false);
                HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("tombstone");
            client.putSku(sku, 10);
            String order = Ids.order("tombstone");
            // What order.lua CANCEL leaves for an order it never saw, before its caller died.
            long now = System.currentTimeMillis();
            hot.writeOrderRecord(order, Map.of("st", "CANCELLED", "fp", "", "ln", "", "c",
                    Long.toString(now), "e", "0", "t", "", "u", Long.toString(now)));

            StockGuardClient.Response retried = client.cancel(order);
            assertThat(retried.status()).isEqualTo(200);
            assertThat(retried.text("state")).isEqualTo("CANCELLED");

            assertThat(service.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                    order)).isEqualTo("CANCELLED");
            assertThat(client.reservation(order).text("state")).isEqualTo("CANCELLED");
            assertThat(client.reserve(order, new Line(sku, 1)).code()).isEqualTo("ORDER_CANCELLED");
        }
    }
}
