package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * After a loss of Redis's data (a copy of another history replaced, or a SKU loaded before found
 * gone), a reservation of an order the hot store has no line of asks its caller to look the order
 * up in the database first, for the window the load was given: with Kafka, a replay of an order
 * the lost records had would otherwise be sold again. A load that replaces an older epoch's copy
 * opens the window too: the database owned the SKU in between and may have sold orders the hot store
 * never saw. Outside the window nothing is asked.
 */
class LossWindowScriptIT {

    private static final long[] TEN = {10, 0, 0, 0};
    @RegisterExtension
    static final ScriptFixture redis = new ScriptFixture();

    @Test
    void aLoadAfterALossMakesUnknownOrdersAskTheDatabaseForItsWindow() {
        SkuId sku = ScriptFixture.sku();
        assertThat(redis.loadWith(sku, 1, "NORMAL", 0, 1_000, 60_000, TEN).status()).isEqualTo("LOADED");
        assertThat(reserve(sku, ScriptFixture.order(), 2_000, 1, false).status())
                .as("a first load is no loss").isEqualTo("OK");

        redis.server.command("HSET", Keys.meta(sku), "h", "0".repeat(40));
        assertThat(redis.loadWith(sku, 2, "NORMAL", 0, 10_000, 60_000, TEN).status()).isEqualTo("LOADED");

        OrderId order = ScriptFixture.order();
        assertThat(reserve(sku, order, 11_000, 2, false).values()).containsExactly("ASK_DATABASE");
        assertThat(redis.field(sku, 0, 'a')).as("nothing taken").isEqualTo(10);
        assertThat(reserve(sku, order, 11_000, 2, true).status()).as("the database does not know it").isEqualTo("OK");
        assertThat(reserve(sku, order, 11_001, 2, false).status()).as("known here now: a retry").isEqualTo("ALREADY");
        assertThat(reserve(sku, ScriptFixture.order(), 70_001, 2, false).status()).as("after the window")
                .isEqualTo("OK");
    }

    @Test
    void aSkuLoadedBeforeAndFoundGoneIsALossAndAReloadUnderANewEpochOpensTheWindowAgain() {
        SkuId sku = ScriptFixture.sku();
        assertThat(redis.loadWith(sku, 3, "NORMAL", 0, 10_000, 60_000, TEN).status()).as("epoch 3, nothing here")
                .isEqualTo("LOADED");
        assertThat(reserve(sku, ScriptFixture.order(), 11_000, 3, false).values()).containsExactly("ASK_DATABASE");

        assertThat(redis.loadWith(sku, 4, "NORMAL", 0, 20_000, 60_000, TEN).status()).isEqualTo("LOADED");
        assertThat(reserve(sku, ScriptFixture.order(), 21_000, 4, false).values())
                .as("a reload under a new epoch follows the database's ownership").containsExactly("ASK_DATABASE");
        assertThat(reserve(sku, ScriptFixture.order(), 70_001, 4, false).values())
                .as("its window runs from the reload").containsExactly("ASK_DATABASE");
        assertThat(reserve(sku, ScriptFixture.order(), 80_001, 4, false).status()).isEqualTo("OK");
    }

    @Test
    void withNoWindowNothingIsEverAsked() {
        SkuId sku = ScriptFixture.sku();
        redis.server.command("HSET", Keys.meta(sku), "epoch", "1", "h", "0".repeat(40));
        assertThat(redis.loadWith(sku, 2, "NORMAL", 0, 10_000, 0, TEN).status()).isEqualTo("LOADED");
        assertThat(reserve(sku, ScriptFixture.order(), 11_000, 2, false).status()).isEqualTo("OK");
    }

    private static Reply reserve(SkuId sku, OrderId order, long nowMillis, long epoch, boolean databaseAsked) {
        List<String> arguments = new java.util.ArrayList<>(List.of(order.value(), "1", "0", "0",
                Long.toString(nowMillis), Long.toString(nowMillis + 900_000), "fp-" + order, "", "test", "3600",
                "100000", Long.toString(epoch), "", databaseAsked ? "1" : ""));
        for (int i = 0; i < 4; i++) {
            arguments.add(io.stockguard.journal.EventIds.next());
        }
        return redis.run(Script.RESERVE, Keys.reserveKeys(sku, order), arguments);
    }
}
