package io.stockguard.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testing.StockGuardClient.Response;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** I6: once a freeze returns, no instance sells the SKU; cancels, restocks and queries still work. */
class FreezeAcrossInstancesIT {

    private static RunningService first;
    private static RunningService second;

    @BeforeAll
    static void startTwoInstancesOnOneDatabase() {
        TestDatabase database = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        first = RunningService.start(database, Map.of());
        second = RunningService.start(database, Map.of());
    }

    @AfterAll
    static void stop() {
        first.close();
        second.close();
    }

    @Test
    void freezeOnOneInstanceStopsSellingOnTheOtherWithinOneSecond() {
        String sku = Ids.sku("freeze");
        first.client().putSku(sku, 100);
        String held = Ids.order("held");
        assertThat(second.client().reserve(held, new Line(sku, 5)).status()).isEqualTo(201);

        Response frozen = first.admin().freeze(sku, "drift of 4.2% detected");
        assertThat(frozen.status()).isEqualTo(200);
        assertThat(frozen.text("after")).isEqualTo("FROZEN");

        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(20))
                .until(() -> second.client().reserve(Ids.order("during"), new Line(sku, 1)).status() == 423);
        Response refused = second.client().reserve(Ids.order("during"), new Line(sku, 1));
        assertThat(refused.code()).isEqualTo("SKU_FROZEN");
        assertThat(first.client().reserve(Ids.order("during"), new Line(sku, 1)).code()).isEqualTo("SKU_FROZEN");

        assertThat(second.client().cancel(held).text("state")).isEqualTo("CANCELLED");
        assertThat(second.client().restock(sku, 10).status()).isEqualTo(200);
        Response stock = second.client().sku(sku);
        assertThat(stock.text("mode")).isEqualTo("FROZEN");
        assertThat(stock.number("available")).isEqualTo(110);

        assertThat(second.admin().unfreeze(sku, "fixed and verified").text("after")).isEqualTo("NORMAL");
        assertThat(first.client().reserve(Ids.order("after"), new Line(sku, 1)).status()).isEqualTo(201);

        Response audit = first.admin().send("GET", "/api/v1/admin/audit?target=sku:" + sku, null);
        assertThat(audit.body().findValuesAsString("action")).containsSubsequence("UNFREEZE", "FREEZE");
        Response freezes = first.admin().send("GET", "/api/v1/admin/audit?target=sku:" + sku + "&action=FREEZE", null);
        assertThat(freezes.body()).hasSize(1);
        assertThat(freezes.body().get(0).get("reason").asString()).isEqualTo("drift of 4.2% detected");
        assertThat(freezes.body().get(0).get("before").asString()).contains("NORMAL");
        assertThat(freezes.body().get(0).get("after").asString()).contains("FROZEN");
        assertThat(freezes.body().get(0).get("actor").asString()).isEqualTo("admin-key:ops");
    }

    @Test
    void freezeOfAnUnknownSkuIsNotFoundAndAReasonIsRequired() {
        assertThat(first.admin().freeze(Ids.sku("ghost"), "why").code()).isEqualTo("UNKNOWN_SKU");
        String sku = Ids.sku("no-reason");
        first.client().putSku(sku, 1);
        assertThat(first.admin().freeze(sku, " ").code()).isEqualTo("INVALID_REQUEST");
        assertThat(first.client().sku(sku).text("mode")).isEqualTo("NORMAL");
    }
}
