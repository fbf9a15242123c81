package io.stockguard.reservation.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** confirm.lua: a held line becomes a sale, once. */
class ConfirmScriptIT {

    private static ScriptFixture redis;

    @BeforeAll
    static void start() {
        redis = new ScriptFixture();
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    @Test
    void movesReservedToSoldOnceAndJournalsIt() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 3, 0, false);

        Reply reply = redis.confirm(sku, order);

        assertThat(reply.status()).isEqualTo("OK");
        assertThat(redis.field(sku, 0, 'r')).isZero();
        assertThat(redis.field(sku, 0, 's')).isEqualTo(3);
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(7);
        assertThat(redis.field(sku, 0, 'j')).as("confirm does not change available").isEqualTo(-3);
        assertThat(redis.outbox(sku).getLast()).containsEntry("op", "CONFIRM").containsEntry("dr", "-3")
                .containsEntry("ds", "3");
        assertThat(redis.confirm(sku, order).status()).isEqualTo("ALREADY");
        assertThat(redis.field(sku, 0, 's')).isEqualTo(3);
    }

    @Test
    void refusesCancelledAndUnknownLines() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 3, 0, false);
        redis.release(sku, order, "CANCEL");

        Reply cancelled = redis.confirm(sku, order);
        assertThat(cancelled.status()).isEqualTo("STATE");
        assertThat(cancelled.string(1)).isEqualTo("CANCELLED");
        assertThat(redis.confirm(sku, ScriptFixture.order()).status()).isEqualTo("NONE");
        assertThat(redis.confirm(ScriptFixture.sku(), order).status()).isEqualTo("NOT_LOADED");
        assertThat(redis.field(sku, 0, 's')).isZero();
    }
}
