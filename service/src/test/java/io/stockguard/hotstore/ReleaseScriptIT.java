package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** release.lua: cancel, expiry and undoing an unacknowledged reservation. */
class ReleaseScriptIT {

    @RegisterExtension
    static final ScriptFixture redis = new ScriptFixture();

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
        assertThat(reply.string(1)).as("its entry").isEqualTo(redis.outboxIds(sku).getLast());
        assertThat(redis.line(sku, order)).isEqualTo("CANCELLED|0|4|1|" + reply.string(1) + "|");
        assertThat(redis.release(sku, order, "CANCEL").values()).as("a second cancel")
                .containsExactly("ALREADY", "CANCELLED", reply.string(1));
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
        assertThat(redis.outboxLength(sku)).isEqualTo(2);
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

        Reply expired = redis.release(sku, held, "EXPIRE");
        assertThat(expired.status()).isEqualTo("OK");
        assertThat(redis.release(sku, sold, "EXPIRE").values()).as("a sold line stays, and has no expiry's entries")
                .containsExactly("ALREADY", "CONFIRMED", "");

        assertThat(redis.field(sku, 0, 'a')).isEqualTo(7);
        assertThat(redis.field(sku, 0, 's')).isEqualTo(3);
        assertThat(redis.line(sku, held)).isEqualTo("EXPIRED|0|2|1|" + expired.string(1) + "|");
        assertThat(redis.outbox(sku).getLast()).containsEntry("op", "EXPIRE").containsEntry("o", held.value())
                .containsEntry("da", "2").containsEntry("dr", "-2");
    }

    @Test
    void unreserveUndoesAnUnacknowledgedReservationWithoutJournaling() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        Reply reserved = redis.reserve(sku, order, 4, 0, false);
        String entry = reserved.string(4);

        assertThat(redis.release(sku, order, "UNRESERVE", entry).status()).isEqualTo("UNRESERVED");

        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
        assertThat(redis.field(sku, 0, 'r')).isZero();
        assertThat(redis.field(sku, 0, 'j')).as("journaled sum restored").isZero();
        assertThat(redis.outboxLength(sku)).as("its entry removed, nothing new journaled").isZero();
        assertThat(redis.line(sku, order)).isEqualTo("UNRESERVED|0|4|1||");
        assertThat(redis.reserve(sku, order, 4, 0, false).status()).as("a retry starts afresh").isEqualTo("OK");
    }

    @Test
    void unreserveOfAJournaledReservationSaysSo() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        String entry = redis.reserve(sku, order, 4, 0, false).string(4);
        redis.server.command("XDEL", Keys.outbox(sku), entry);

        assertThat(redis.release(sku, order, "UNRESERVE", entry).status()).isEqualTo("JOURNALED");
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(6);
    }

    @Test
    void discardUndoesARefusedReservationEvenAfterItsEntryWasSwept() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        String entry = redis.reserve(sku, order, 4, 0, false).string(4);
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

        OrderId cancelled = ScriptFixture.order();
        assertThat(redis.release(sku, cancelled, "CANCEL").status()).isEqualTo("TOMBSTONE");
        assertThat(redis.line(sku, cancelled)).isEqualTo("CANCELLED|-1|0|1|");
        assertThat(redis.release(sku, cancelled, "CANCEL").values()).containsExactly("ALREADY", "CANCELLED", "");
        assertThat(redis.release(sku, ScriptFixture.order(), "EXPIRE").status()).isEqualTo("NONE");
        assertThat(redis.release(ScriptFixture.sku(), ScriptFixture.order(), "CANCEL").status())
                .isEqualTo("NOT_LOADED");
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
        assertThat(redis.outboxLength(sku)).isZero();
    }

    @Test
    void aCallerAtAnotherEpochIsStaleAndLeavesNoTombstone() {
        SkuId sku = ScriptFixture.sku();
        OrderId unknown = ScriptFixture.order();
        redis.loadAt(sku, 2, 10);

        assertThat(redis.releaseAt(sku, unknown, "CANCEL", 1).values()).containsExactly("STALE", 2L);
        assertThat(redis.releaseAt(sku, unknown, "CANCEL", 3).values()).containsExactly("STALE", 2L);
        assertThat(redis.line(sku, unknown)).isEqualTo("$-1");
    }

    @Test
    void aCallerAtAnotherEpochIsStaleForEveryWayAndReturnsNothing() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.loadAt(sku, 2, 10);
        Reply reserved = redis.reserve(sku, order, 4, 0, false, 2);
        String record = redis.line(sku, order);

        for (String how : List.of("CANCEL", "EXPIRE", "UNRESERVE", "DISCARD")) {
            assertThat(redis.releaseAt(sku, order, how, 1, reserved.string(4)).values()).as(how)
                    .containsExactly("STALE", 2L);
        }
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(6);
        assertThat(redis.field(sku, 0, 'r')).isEqualTo(4);
        assertThat(redis.outboxIds(sku)).containsExactly(reserved.string(4));
        assertThat(redis.line(sku, order)).isEqualTo(record);
    }

    @Test
    void aLineRecordOfAnotherEpochIsForeignForEveryWayAndChangesNothing() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        String entry = redis.reserve(sku, order, 4, 0, false).string(4);
        String record = redis.line(sku, order);
        redis.loadAt(sku, 2, 6);

        for (String how : List.of("CANCEL", "EXPIRE", "UNRESERVE", "DISCARD")) {
            assertThat(redis.releaseAt(sku, order, how, 2, entry).values()).as(how)
                    .containsExactly("FOREIGN", "RESERVED", 0L, 4L, 1L);
        }
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(6);
        assertThat(redis.field(sku, 0, 'r')).isZero();
        assertThat(redis.field(sku, 0, 'j')).isZero();
        assertThat(redis.outboxLength(sku)).isZero();
        assertThat(redis.line(sku, order)).isEqualTo(record);
    }

    @Test
    void aLineRecordInTheOldThreeFieldFormatIsForeignOfEpochZero() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.putLine(sku, order, "RESERVED|0|4");

        assertThat(redis.release(sku, order, "CANCEL").values()).containsExactly("FOREIGN", "RESERVED", 0L, 4L, 0L);
        assertThat(redis.field(sku, 0, 'a')).as("stock the hot store never held is not given back").isEqualTo(10);
        assertThat(redis.outboxLength(sku)).isZero();
        assertThat(redis.line(sku, order)).isEqualTo("RESERVED|0|4");
    }

    @Test
    void alreadyAfterAnExpiryReturnsTheExpirysEntryWhichIsInTheOutbox() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 2, 0, false);
        Reply expired = redis.release(sku, order, "EXPIRE");

        Reply again = redis.release(sku, order, "EXPIRE");
        Reply cancel = redis.release(sku, order, "CANCEL");

        assertThat(again.values()).containsExactly("ALREADY", "EXPIRED", expired.string(1));
        assertThat(cancel.values()).as("a cancel after the expiry").containsExactly("ALREADY", "EXPIRED",
                expired.string(1));
        assertThat(redis.outboxIds(sku, "op", "EXPIRE")).containsExactly(expired.string(1));
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
    }
}
