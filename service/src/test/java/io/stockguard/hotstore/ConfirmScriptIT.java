package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** confirm.lua: a held line becomes a sale, once. */
class ConfirmScriptIT {

    @RegisterExtension
    static final ScriptFixture redis = new ScriptFixture();

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
                .containsEntry("ds", "3").containsEntry("ep", "1").containsEntry("sq", "2");
        assertThat(reply.values()).as("OK entry id bucket qty sequence epoch available journaled")
                .containsExactly("OK", redis.outboxIds(sku).getLast(), reply.string(2), 0L, 3L, 2L, 1L, 7L, -3L);
        assertThat(redis.line(sku, order)).isEqualTo("CONFIRMED|0|3|1|" + reply.string(1) + "|");
        assertThat(redis.confirm(sku, order).values()).containsExactly("ALREADY", reply.string(1));
        assertThat(redis.field(sku, 0, 's')).isEqualTo(3);
        assertThat(redis.outboxLength(sku)).isEqualTo(2);
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

    @Test
    void alreadyOfALineSoldInOneStepReturnsItsReserveAndConfirmEntries() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 3, 0, true);

        Reply reply = redis.confirm(sku, order);

        assertThat(reply.values()).containsExactly("ALREADY", String.join(",", redis.outboxIds(sku)));
        assertThat(redis.outboxLength(sku)).isEqualTo(2);
        assertThat(redis.field(sku, 0, 's')).isEqualTo(3);
    }

    @Test
    void aCallerAtAnotherEpochIsStaleAndChangesNothing() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.loadAt(sku, 2, 10);
        redis.reserve(sku, order, 3, 0, false, 2);
        String record = redis.line(sku, order);

        assertThat(redis.confirm(sku, order, 1).values()).containsExactly("STALE", 2L);
        assertThat(redis.confirm(sku, order, 3).values()).containsExactly("STALE", 2L);
        assertThat(redis.field(sku, 0, 'r')).isEqualTo(3);
        assertThat(redis.field(sku, 0, 's')).isZero();
        assertThat(redis.outboxLength(sku)).isEqualTo(1);
        assertThat(redis.line(sku, order)).isEqualTo(record);
    }

    @Test
    void aLineRecordOfAnotherEpochIsForeignAndChangesNothing() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 3, 0, false);
        String record = redis.line(sku, order);
        redis.load(sku, 2, "NORMAL", 0, new long[] {7, 3, 0, 0});

        assertThat(redis.confirm(sku, order, 2).values()).containsExactly("FOREIGN", "RESERVED", 0L, 3L, 1L);
        assertThat(redis.field(sku, 0, 'r')).isEqualTo(3);
        assertThat(redis.field(sku, 0, 's')).isZero();
        assertThat(redis.outboxLength(sku)).isZero();
        assertThat(redis.line(sku, order)).isEqualTo(record);
    }

    @Test
    void aLineRecordInTheOldThreeFieldFormatIsForeignOfEpochZero() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 2, "NORMAL", 0, new long[] {7, 3, 0, 0});
        redis.putLine(sku, order, "RESERVED|0|3");

        assertThat(redis.confirm(sku, order, 2).values()).containsExactly("FOREIGN", "RESERVED", 0L, 3L, 0L);
        assertThat(redis.field(sku, 0, 'r')).isEqualTo(3);
        assertThat(redis.field(sku, 0, 's')).isZero();
        assertThat(redis.outboxLength(sku)).isZero();
    }
}
