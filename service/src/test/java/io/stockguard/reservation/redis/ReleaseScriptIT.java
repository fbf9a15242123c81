package io.stockguard.reservation.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** release.lua: cancel, expiry and undoing an unacknowledged reservation. */
class ReleaseScriptIT {

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
    void cancelReturnsHeldStockAndJournalsIt() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 4, 0, false);

        Reply reply = redis.release(sku, order, "CANCEL");

        assertThat(reply.status()).isEqualTo("OK");
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
        assertThat(redis.field(sku, 0, 'r')).isZero();
        assertThat(redis.field(sku, 0, 'j')).isZero();
        assertThat(redis.field(sku, 0, 'q')).isEqualTo(2);
        assertThat(redis.outbox(sku).getLast()).containsEntry("op", "CANCEL").containsEntry("da", "4")
                .containsEntry("dr", "-4");
        assertThat(redis.line(sku, order)).isEqualTo("CANCELLED|0|4");
        assertThat(redis.release(sku, order, "CANCEL").status()).as("a second cancel").isEqualTo("ALREADY");
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
    }

    @Test
    void cancelOfASoldLineReturnsSoldStock() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 3, 0, true);

        assertThat(redis.release(sku, order, "CANCEL").status()).isEqualTo("OK");

        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
        assertThat(redis.field(sku, 0, 's')).isZero();
    }

    @Test
    void expiryReturnsHeldStockButNotSoldStock() {
        SkuId sku = ScriptFixture.sku();
        OrderId held = ScriptFixture.order();
        OrderId sold = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, held, 2, 0, false);
        redis.reserve(sku, sold, 3, 0, true);

        assertThat(redis.release(sku, held, "EXPIRE").status()).isEqualTo("OK");
        assertThat(redis.release(sku, sold, "EXPIRE").status()).isEqualTo("ALREADY");

        assertThat(redis.field(sku, 0, 'a')).isEqualTo(7);
        assertThat(redis.field(sku, 0, 's')).isEqualTo(3);
        assertThat(redis.line(sku, held)).isEqualTo("EXPIRED|0|2");
    }

    @Test
    void unreserveUndoesAnUnacknowledgedReservationWithoutJournaling() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        Reply reserved = redis.reserve(sku, order, 4, 0, false);
        String entry = reserved.string(3);

        assertThat(redis.release(sku, order, "UNRESERVE", entry).status()).isEqualTo("UNRESERVED");

        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
        assertThat(redis.field(sku, 0, 'r')).isZero();
        assertThat(redis.field(sku, 0, 'j')).as("journaled sum restored").isZero();
        assertThat(redis.outboxLength(sku)).as("its entry removed, nothing new journaled").isZero();
        assertThat(redis.reserve(sku, order, 4, 0, false).status()).as("a retry starts afresh").isEqualTo("OK");
    }

    @Test
    void unreserveOfAJournaledReservationSaysSo() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        String entry = redis.reserve(sku, order, 4, 0, false).string(3);
        redis.server.command("XDEL", Keys.outbox(sku), entry);

        assertThat(redis.release(sku, order, "UNRESERVE", entry).status()).isEqualTo("JOURNALED");
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(6);
    }

    @Test
    void discardUndoesARefusedReservationEvenAfterItsEntryWasSwept() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        String entry = redis.reserve(sku, order, 4, 0, false).string(3);
        redis.server.command("XDEL", Keys.outbox(sku), entry);

        assertThat(redis.release(sku, order, "DISCARD", entry).status()).isEqualTo("UNRESERVED");
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
        assertThat(redis.field(sku, 0, 'r')).isZero();
        assertThat(redis.field(sku, 0, 'j')).as("journaled sum restored: the database never applied it").isZero();
        assertThat(redis.outboxLength(sku)).isZero();
    }

    @Test
    void cancelOfAnUnknownLineLeavesATombstoneAndExpiryOfOneDoesNothing() {
        SkuId sku = ScriptFixture.sku();
        redis.load(sku, 10);

        assertThat(redis.release(sku, ScriptFixture.order(), "CANCEL").status()).isEqualTo("TOMBSTONE");
        assertThat(redis.release(sku, ScriptFixture.order(), "EXPIRE").status()).isEqualTo("NONE");
        assertThat(redis.release(ScriptFixture.sku(), ScriptFixture.order(), "CANCEL").status())
                .isEqualTo("NOT_LOADED");
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
        assertThat(redis.outboxLength(sku)).isZero();
    }
}
