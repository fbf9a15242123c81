package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The gives set against a real Redis: every change that puts stock back into a bucket (cancel,
 * expiry, restock, adjustment, transfer) is remembered until it is journaled, and a later
 * reservation or stock change is told which of them came before it, so that its caller journals
 * them first: a sale is never durable before the stock it took.
 */
class GivesScriptIT {

    @RegisterExtension
    static final ScriptFixture redis = new ScriptFixture();

    @Test
    void aReservationIsToldOfTheCancelThatReturnedTheStockItTakes() {
        SkuId sku = ScriptFixture.sku();
        OrderId cancelled = ScriptFixture.order();
        redis.load(sku, 3);
        assertThat(redis.reserve(sku, cancelled, 3, 0, false).string(3)).as("nothing given back yet").isEmpty();
        Reply cancel = redis.release(sku, cancelled, "CANCEL");
        assertThat(cancel.status()).isEqualTo("OK");

        Reply sale = redis.reserve(sku, ScriptFixture.order(), 3, 0, true);

        assertThat(sale.status()).isEqualTo("OK");
        assertThat(sale.string(3)).as("the cancel's entry, not journaled yet").isEqualTo(cancel.string(1));
    }

    @Test
    void transfersAndStockChangesAreGivesAndAJournaledGiveIsForgotten() {
        SkuId sku = ScriptFixture.sku();
        redis.load(sku, 1, 5);
        Reply transferred = redis.reserve(sku, ScriptFixture.order(), 3, 0, false);
        List<String> transfers = redis.outboxIds(sku, "op", "TRANSFER_OUT");
        transfers = List.of(transfers.getFirst(), redis.outboxIds(sku, "op", "TRANSFER_IN").getFirst());
        assertThat(transferred.string(3)).as("its own transfers are not before it").isEmpty();

        Reply restock = redis.stock(sku, "RESTOCK", "DELTA", 4, "", "fp", ScriptFixture.EPOCH, 100_000);
        assertThat(restock.status()).isEqualTo("OK");
        assertThat(List.of(restock.string(4).split(","))).as("the transfers before the restock")
                .containsExactlyInAnyOrderElementsOf(transfers);

        Reply next = redis.reserve(sku, ScriptFixture.order(), 1, 1, false);
        List<String> restocked = redis.outboxIds(sku, "op", "RESTOCK");
        assertThat(List.of(next.string(3).split(","))).containsExactlyInAnyOrderElementsOf(
                java.util.stream.Stream.concat(transfers.stream(), restocked.stream()).toList());

        redis.redis.deleteFromOutbox(Keys.outbox(sku), transfers);
        assertThat(List.of(redis.reserve(sku, ScriptFixture.order(), 1, 1, false).string(3).split(",")))
                .as("journaled and deleted: no longer before anything").containsExactlyInAnyOrderElementsOf(restocked);
    }

    @Test
    void aReloadForgetsTheGivesWithTheOutbox() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 5);
        redis.reserve(sku, order, 2, 0, false);
        redis.release(sku, order, "CANCEL");

        redis.loadAt(sku, ScriptFixture.EPOCH + 1, 5);

        assertThat(redis.reserve(sku, ScriptFixture.order(), 1, 0, false, ScriptFixture.EPOCH + 1).string(3))
                .isEmpty();
    }
}
