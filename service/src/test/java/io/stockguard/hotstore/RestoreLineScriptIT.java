package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * restore_line.lua: the database's copy of a line's record is written over a record of another
 * epoch (or none), never over one a change made under the current epoch, unless that change undid
 * the line (it holds nothing, and the database has the line from elsewhere).
 */
class RestoreLineScriptIT {

    @RegisterExtension
    static final ScriptFixture redis = new ScriptFixture();

    @Test
    void writesOverARecordOfAnotherEpoch() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 3, 0, false);
        redis.loadAt(sku, 2, 7);

        Reply reply = redis.restoreLine(sku, order, 2, "CONFIRMED|0|3|2|");

        assertThat(reply.values()).containsExactly("OK");
        assertThat(redis.line(sku, order)).isEqualTo("CONFIRMED|0|3|2|");
        assertThat(Long.parseLong(redis.server.command("TTL", Keys.line(sku, order)).substring(1)))
                .as("the record's lifetime").isBetween(3500L, 3600L);
    }

    @Test
    void writesOverAnOldFormatRecordAndWhereThereIsNone() {
        SkuId sku = ScriptFixture.sku();
        OrderId old = ScriptFixture.order();
        OrderId missing = ScriptFixture.order();
        redis.load(sku, 10);
        redis.putLine(sku, old, "RESERVED|0|3");

        assertThat(redis.restoreLine(sku, old, 1, "RESERVED|0|3|1|").values()).containsExactly("OK");
        assertThat(redis.restoreLine(sku, missing, 1, "CANCELLED|-1|0|1|").values()).containsExactly("OK");

        assertThat(redis.line(sku, old)).isEqualTo("RESERVED|0|3|1|");
        assertThat(redis.line(sku, missing)).isEqualTo("CANCELLED|-1|0|1|");
    }

    @Test
    void keepsARecordOfTheCurrentEpochAsCurrent() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.loadAt(sku, 2, 10);
        redis.reserve(sku, order, 3, 0, false, 2);
        String record = redis.line(sku, order);

        assertThat(redis.restoreLine(sku, order, 2, "RESERVED|0|3|2|").values()).containsExactly("CURRENT");
        assertThat(redis.restoreLine(sku, order, 2, "CANCELLED|0|3|2|").values()).containsExactly("CURRENT");
        assertThat(redis.restoreLine(sku, order, 2, "").values()).as("not even removed").containsExactly("CURRENT");

        assertThat(redis.line(sku, order)).isEqualTo(record);
        assertThat(redis.release(sku, order, "CANCEL").status()).as("not in the caller's epoch 1").isEqualTo("STALE");
        assertThat(redis.releaseAt(sku, order, "CANCEL", 2).status()).isEqualTo("OK");
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
    }

    /**
     * Seen in the chaos suite (standard tier, one instance, wait-replicas 0, seed 1, fast failover):
     * an order confirmed in the writes the failover lost was reserved again by its client's replay;
     * the database refused it as made already, the line was discarded here, and the order was
     * rewritten from the database, but not this line, as it was "current". Every cancel of the
     * confirmed order then met the undone line and answered 503 for as long as it was retried.
     */
    @Test
    void writesOverALineTheCurrentEpochUndid() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 2, 0, false);
        assertThat(redis.release(sku, order, "DISCARD").status()).isEqualTo("UNRESERVED");

        assertThat(redis.restoreLine(sku, order, 1, "CONFIRMED|0|2|1|").values()).containsExactly("OK");

        assertThat(redis.line(sku, order)).isEqualTo("CONFIRMED|0|2|1|");
        assertThat(redis.field(sku, 0, 'a')).as("the undo gave its units back; the restore takes none")
                .isEqualTo(10);
    }

    @Test
    void anEmptyRecordRemovesARecordOfAnotherEpoch() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 3, 0, false);
        redis.loadAt(sku, 2, 10);

        assertThat(redis.restoreLine(sku, order, 2, "").values()).containsExactly("OK");

        assertThat(redis.line(sku, order)).isEqualTo("$-1");
        assertThat(redis.reserve(sku, order, 3, 0, false, 2).status()).as("the order may be reserved afresh")
                .isEqualTo("OK");
    }

    @Test
    void aCallerAtAnotherEpochIsStaleAndWritesNothing() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.loadAt(sku, 2, 10);
        redis.putLine(sku, order, "RESERVED|0|3|1|");

        assertThat(redis.restoreLine(sku, order, 1, "CANCELLED|0|3|1|").values()).containsExactly("STALE", 2L);
        assertThat(redis.restoreLine(sku, order, 3, "").values()).containsExactly("STALE", 2L);
        assertThat(redis.line(sku, order)).isEqualTo("RESERVED|0|3|1|");

        SkuId unknown = ScriptFixture.sku();
        assertThat(redis.restoreLine(unknown, order, 1, "RESERVED|0|3|1|").values()).as("not loaded")
                .containsExactly("STALE", 0L);
        assertThat(redis.line(unknown, order)).isEqualTo("$-1");
    }

    @Test
    void aRestoredRecordIsTheLinesOwnForTheScriptsOfItsEpoch() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 5, 5);
        redis.reserve(sku, order, 3, 1, false);
        redis.load(sku, 2, "NORMAL", 0, new long[] {5, 0, 0, 0}, new long[] {2, 3, 0, 0});
        assertThat(redis.reserve(sku, order, 3, 1, false, 2).status()).isEqualTo("FOREIGN");

        assertThat(redis.restoreLine(sku, order, 2, "RESERVED|1|3|2|").status()).isEqualTo("OK");

        assertThat(redis.reserve(sku, order, 3, 1, false, 2).values()).as("no entries: nothing waits to be journaled")
                .containsExactly("ALREADY", 1L, "RESERVED", "");
        Reply confirmed = redis.confirm(sku, order, 2);
        assertThat(confirmed.status()).isEqualTo("OK");
        assertThat(redis.field(sku, 1, 'r')).isZero();
        assertThat(redis.field(sku, 1, 's')).isEqualTo(3);
        assertThat(redis.line(sku, order)).isEqualTo("CONFIRMED|1|3|2|" + confirmed.string(1) + "|");
    }
}
