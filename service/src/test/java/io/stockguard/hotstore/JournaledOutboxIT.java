package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import org.junit.jupiter.api.Test;

/**
 * A journaled change leaves the outbox without a round trip of its own: the delete is sent ahead of
 * the order's close on the same connection, so it has run by the time the caller hears the answer.
 */
class JournaledOutboxIT {

    @Test
    void aReservationsOutboxEntriesAreGoneWhenItIsAnsweredAndTheSettlementsSoonAfter() throws Exception {
        try (RedisServer redis = RedisServer.start();
                RunningService service = RunningService.startRedis(redis.uri(), false);
                HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("outbox");
            client.putSku(sku, 100, 4);
            for (int i = 0; i < 20; i++) {
                String order = Ids.order("outbox-" + i);
                assertThat(client.reserve(order, new StockGuardClient.Line(sku, 2)).status()).isEqualTo(201);
                assertThat(hot.redis().xlen("sg:{" + sku + "}:x")).as("outbox right after reservation %d", i)
                        .isZero();
                assertThat(i % 2 == 0 ? client.confirm(order).status() : client.cancel(order).status())
                        .isEqualTo(200);
            }
            hot.awaitDrained(sku);
            service.awaitJournalApplied(sku);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
            hot.assertMatchesDatabase(service.jdbc(), sku);
            assertThat(LedgerChecks.buckets(service.jdbc(), sku).values().stream().mapToLong(c -> c.sold()).sum())
                    .isEqualTo(20);
        }
    }
}
