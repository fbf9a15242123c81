package io.stockguard.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testkit.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The database tier refuses a SKU it last saw sold out from one read of the committed state, before
 * any transaction. That read must never refuse what a transaction would serve: an order already
 * stored replays, a SKU restocked since sells again, a frozen SKU says frozen, and the books stay
 * exactly what the answers said (I1, I3, I6, I8).
 */
class SoldOutRefusalIT {

    @ParameterizedTest
    @EnumSource(value = TestDatabase.Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void aSkuSeenSoldOutIsRefusedUntilItHasStockAgainAndAStoredOrderStillReplays(TestDatabase.Kind kind) {
        RunningService service = RunningService.shared(kind);
        StockGuardClient client = service.client();
        String sku = Ids.sku("sold-out");
        String orders = Ids.order("sold-out") + "-";
        assertThat(client.putSku(sku, 2, 1).status()).isEqualTo(201);

        StockGuardClient.Response first = client.reserve(orders + "1", new Line(sku, 2));
        assertThat(first.ok()).as(first.body().toString()).isTrue();
        // The batch that serves this request finds the SKU empty and remembers it.
        assertThat(client.reserve(orders + "2", new Line(sku, 1)).code()).isEqualTo("INSUFFICIENT_STOCK");

        // Served from the read: still refused, with what the SKU holds.
        StockGuardClient.Response refused = client.reserve(orders + "3", new Line(sku, 1));
        assertThat(refused.code()).isEqualTo("INSUFFICIENT_STOCK");
        assertThat(refused.number("available")).isZero();
        // The stored order of the sold-out SKU is not refused: it replays its reservation.
        StockGuardClient.Response retry = client.reserve(orders + "1", new Line(sku, 2));
        assertThat(retry.ok()).as(retry.body().toString()).isTrue();
        assertThat(retry.body().get("replayed").asBoolean()).isTrue();

        // Restocked since it was seen sold out: the next order sells.
        assertThat(client.restock(sku, 1).ok()).isTrue();
        StockGuardClient.Response afterRestock = client.reserve(orders + "4", new Line(sku, 1));
        assertThat(afterRestock.ok()).as(afterRestock.body().toString()).isTrue();
        assertThat(client.reserve(orders + "5", new Line(sku, 1)).code()).isEqualTo("INSUFFICIENT_STOCK");

        // Frozen while seen sold out: refused as frozen, as the transaction would.
        assertThat(service.admin().freeze(sku, "checked by the test").ok()).isTrue();
        assertThat(client.reserve(orders + "6", new Line(sku, 1)).code()).isEqualTo("SKU_FROZEN");
        // A cancel gives a unit back while frozen; unfrozen, the SKU sells it, though it was seen empty.
        assertThat(client.cancel(orders + "4").ok()).isTrue();
        assertThat(service.admin().unfreeze(sku, "checked by the test").ok()).isTrue();
        StockGuardClient.Response afterCancel = client.reserve(orders + "7", new Line(sku, 1));
        assertThat(afterCancel.ok()).as(afterCancel.body().toString()).isTrue();

        LedgerChecks.assertNoOversell(service.jdbc(), sku, 3);
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        LedgerChecks.Counters totals = LedgerChecks.totals(service.jdbc(), sku);
        assertThat(totals.reserved()).as("held by orders 1 and 7").isEqualTo(3);
        assertThat(totals.available()).isZero();
        for (String refusedOrder : new String[] {"2", "3", "5", "6"}) {
            assertThat(client.reservation(orders + refusedOrder).status()).as("order %s was never stored", refusedOrder)
                    .isEqualTo(404);
        }
    }
}
