package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** reserve.lua against a real Redis, including the negative space. */
class ReserveScriptIT {

    @RegisterExtension
    static final ScriptFixture redis = new ScriptFixture();

    @Test
    void takesFromTheHomeBucketAndJournalsTheChange() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10, 10);

        Reply reply = redis.reserve(sku, order, 3, 1, false);

        assertThat(reply.status()).isEqualTo("OK");
        assertThat(reply.number(1)).as("home").isEqualTo(1);
        assertThat(reply.number(2)).as("epoch").isEqualTo(ScriptFixture.EPOCH);
        assertThat(reply.string(3)).as("no gives before it").isEmpty();
        assertThat(reply.size()).as("one event of 10 values").isEqualTo(14);
        assertThat(redis.field(sku, 1, 'a')).isEqualTo(7);
        assertThat(redis.field(sku, 1, 'r')).isEqualTo(3);
        assertThat(redis.field(sku, 1, 'j')).as("journaled sum moves with available").isEqualTo(-3);
        assertThat(redis.field(sku, 1, 'q')).isEqualTo(1);
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
        List<Map<String, String>> outbox = redis.outbox(sku);
        assertThat(outbox).hasSize(1);
        assertThat(outbox.getFirst()).containsEntry("op", "RESERVE").containsEntry("o", order.value())
                .containsEntry("da", "-3").containsEntry("dr", "3").containsEntry("sq", "1").containsEntry("ep", "1")
                .containsEntry("fp", "fp-" + order).containsEntry("ha", "7").containsEntry("hj", "-3");
        assertThat(redis.line(sku, order)).as("state|bucket|qty|epoch|entries|customer")
                .isEqualTo("RESERVED|1|3|1|" + reply.string(4) + "|");
        assertThat(redis.outboxIds(sku)).containsExactly(reply.string(4));
    }

    @Test
    void aRetryOfTheSameOrderReturnsItsLineAndTakesNothing() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 4, 0, false);

        Reply retry = redis.reserve(sku, order, 4, 0, false);

        assertThat(retry.status()).isEqualTo("ALREADY");
        assertThat(retry.number(1)).as("bucket").isZero();
        assertThat(retry.string(2)).isEqualTo("RESERVED");
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(6);
        assertThat(redis.outboxLength(sku)).isEqualTo(1);
    }

    @Test
    void transfersIntoAShortHomeBucketWhenTheSkuHasTheStock() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 1, 5, 0, 6);

        Reply reply = redis.reserve(sku, order, 4, 0, false);

        assertThat(reply.status()).isEqualTo("OK");
        assertThat(redis.total(sku, 'a', 4)).isEqualTo(8);
        assertThat(redis.field(sku, 0, 'r')).isEqualTo(4);
        assertThat(redis.field(sku, 0, 'a')).as("home topped up to an even share, minus the order").isEqualTo(0);
        List<String> ops = redis.outbox(sku).stream().map(e -> e.get("op")).toList();
        assertThat(ops).containsSubsequence("TRANSFER_OUT", "TRANSFER_IN", "RESERVE");
        for (int b = 0; b < 4; b++) {
            assertThat(redis.field(sku, b, 'j')).as("journaled sum of bucket %d equals its change", b)
                    .isEqualTo(redis.field(sku, b, 'a') - new long[] {1, 5, 0, 6}[b]);
        }
    }

    @Test
    void aCustomerHoldsNoMoreThanTheLimitAcrossOrdersAndAReleaseGivesUnitsBack() {
        SkuId sku = ScriptFixture.sku();
        redis.load(sku, 10, 10);
        assertThat(redis.limit(sku, 3).status()).isEqualTo("OK");
        OrderId first = ScriptFixture.order();
        OrderId second = ScriptFixture.order();

        assertThat(redis.reserveFor(sku, first, 2, "alice").status()).isEqualTo("OK");
        assertThat(redis.line(sku, first)).endsWith("|alice");
        assertThat(redis.outbox(sku).getLast()).containsEntry("op", "RESERVE").containsEntry("cu", "alice");
        Reply over = redis.reserveFor(sku, second, 2, "alice");
        assertThat(over.values()).containsExactly("LIMIT", 3L, 2L);
        assertThat(redis.total(sku, 'a', 2)).as("nothing taken").isEqualTo(18);
        assertThat(redis.reserveFor(sku, ScriptFixture.order(), 3, "bob").status()).isEqualTo("OK");
        assertThat(redis.reserveFor(sku, ScriptFixture.order(), 5, "").status()).as("nobody named: no limit")
                .isEqualTo("OK");
        assertThat(redis.reserveFor(sku, first, 2, "alice").status()).as("a retry counts nothing")
                .isEqualTo("ALREADY");
        assertThat(redis.held(sku, "alice")).isEqualTo(2);

        assertThat(redis.release(sku, first, "CANCEL").status()).isEqualTo("OK");
        assertThat(redis.held(sku, "alice")).isZero();
        assertThat(redis.reserveFor(sku, second, 3, "alice").status()).isEqualTo("OK");
        assertThat(redis.held(sku, "alice")).isEqualTo(3);
        assertThat(redis.limit(sku, 0).status()).isEqualTo("OK");
        assertThat(redis.reserveFor(sku, ScriptFixture.order(), 1, "alice").status()).as("no limit any more")
                .isEqualTo("OK");
        assertThat(redis.held(sku, "alice")).as("still counted, for a limit set again").isEqualTo(4);
    }

    @Test
    void refusesWhatTheSkuDoesNotHaveAndChangesNothing() {
        SkuId sku = ScriptFixture.sku();
        redis.load(sku, 2, 1);

        Reply reply = redis.reserve(sku, ScriptFixture.order(), 4, 0, false);

        assertThat(reply.status()).isEqualTo("SHORT");
        assertThat(reply.number(1)).isEqualTo(3);
        assertThat(redis.total(sku, 'a', 2)).isEqualTo(3);
        assertThat(redis.outboxLength(sku)).isZero();
    }

    @Test
    void sellsTheLastUnitAndThenNoMore() {
        SkuId sku = ScriptFixture.sku();
        redis.load(sku, 0, 0, 1);

        assertThat(redis.reserve(sku, ScriptFixture.order(), 1, 0, false).status()).isEqualTo("OK");
        assertThat(redis.reserve(sku, ScriptFixture.order(), 1, 1, false).status()).isEqualTo("SHORT");
        for (int b = 0; b < 3; b++) {
            assertThat(redis.field(sku, b, 'a')).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void commitSellsInOneStepWithTwoEvents() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 5);

        Reply reply = redis.reserve(sku, order, 2, 0, true);
        assertThat(reply.status()).isEqualTo("OK");

        assertThat(redis.field(sku, 0, 's')).isEqualTo(2);
        assertThat(redis.field(sku, 0, 'r')).isZero();
        assertThat(redis.outbox(sku).stream().map(e -> e.get("op")).toList()).containsExactly("RESERVE", "CONFIRM");
        assertThat(redis.line(sku, order)).isEqualTo("CONFIRMED|0|2|1|" + String.join(",", redis.outboxIds(sku)) + "|");
        assertThat(reply.size()).isEqualTo(24);
        assertThat(List.of(reply.string(4), reply.string(14))).isEqualTo(redis.outboxIds(sku));
    }

    @Test
    void aThrottledSkuAcceptsItsRateRefillsWithTimeAndKeepsItAcrossAReload() {
        SkuId sku = ScriptFixture.sku();
        redis.load(sku, 100);
        assertThat(redis.setMode(sku, "THROTTLED", 2).status()).isEqualTo("OK");
        OrderId first = ScriptFixture.order();
        assertThat(redis.reserveAt(sku, first, 1, 10_000).status()).as("a second's worth at once").isEqualTo("OK");
        assertThat(redis.reserveAt(sku, ScriptFixture.order(), 1, 10_000).status()).isEqualTo("OK");
        Reply refused = redis.reserveAt(sku, ScriptFixture.order(), 1, 10_000);
        assertThat(refused.status()).isEqualTo("THROTTLED");
        assertThat(refused.number(1)).as("milliseconds until the next token").isEqualTo(500);
        assertThat(redis.field(sku, 0, 'a')).as("a refusal takes nothing").isEqualTo(98);
        assertThat(redis.reserveAt(sku, first, 1, 10_000).status()).as("a retry takes no token").isEqualTo("ALREADY");

        assertThat(redis.reserveAt(sku, ScriptFixture.order(), 1, 10_500).status()).as("refilled").isEqualTo("OK");
        assertThat(redis.reserveAt(sku, ScriptFixture.order(), 1, 10_500).status()).isEqualTo("THROTTLED");
        assertThat(redis.reserveAt(sku, ScriptFixture.order(), 1, 9_000).status())
                .as("a clock behind the last refill adds nothing").isEqualTo("THROTTLED");
        assertThat(redis.reserveAt(sku, ScriptFixture.order(), 500, 20_000).status())
                .as("more than there is: refused as short, without a token").isEqualTo("SHORT");

        // A load from the database brings the SKU's rate with it, as the last argument.
        SkuId reloaded = ScriptFixture.sku();
        assertThat(redis.load(reloaded, 2, "THROTTLED", 3, new long[] {50, 0, 0, 0}).status()).isEqualTo("LOADED");
        for (int i = 0; i < 3; i++) {
            assertThat(redis.reserveAt(reloaded, ScriptFixture.order(), 1, 30_000, 2).status()).isEqualTo("OK");
        }
        assertThat(redis.reserveAt(reloaded, ScriptFixture.order(), 1, 30_000, 2).status()).isEqualTo("THROTTLED");

        // A reload of the throttled SKU itself, under the next epoch, starts from a full second again.
        assertThat(redis.load(sku, 2, "THROTTLED", 2, new long[] {90, 0, 0, 0}).status()).isEqualTo("LOADED");
        assertThat(redis.reserveAt(sku, ScriptFixture.order(), 1, 10_500, 2).status()).isEqualTo("OK");
        assertThat(redis.reserveAt(sku, ScriptFixture.order(), 1, 10_500, 2).status()).isEqualTo("OK");
        assertThat(redis.reserveAt(sku, ScriptFixture.order(), 1, 10_500, 2).status()).isEqualTo("THROTTLED");
    }

    @Test
    void refusesWhenFrozenNotLoadedOrTheOutboxIsFull() {
        SkuId frozen = ScriptFixture.sku();
        redis.load(frozen, 5);
        assertThat(redis.setMode(frozen, "FROZEN", 0).status()).isEqualTo("OK");
        assertThat(redis.reserve(frozen, ScriptFixture.order(), 1, 0, false).status()).isEqualTo("FROZEN");
        assertThat(redis.field(frozen, 0, 'a')).isEqualTo(5);

        assertThat(redis.reserve(ScriptFixture.sku(), ScriptFixture.order(), 1, 0, false).status())
                .isEqualTo("NOT_LOADED");

        SkuId backlogged = ScriptFixture.sku();
        redis.load(backlogged, 5);
        assertThat(redis.reserve(backlogged, ScriptFixture.order(), 1, 0, false).status()).isEqualTo("OK");
        Reply backlog = redis.reserve(backlogged, ScriptFixture.order(), 1, 0, false, 1000, ScriptFixture.EPOCH, 1);
        assertThat(backlog.status()).isEqualTo("BACKLOG");
        assertThat(backlog.number(1)).as("the outbox's length").isEqualTo(1);
        assertThat(redis.field(backlogged, 0, 'a')).isEqualTo(4);
    }

    @Test
    void refusesALineACancelAlreadyTombstoned() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 5);
        assertThat(redis.release(sku, order, "CANCEL").status()).isEqualTo("TOMBSTONE");

        assertThat(redis.reserve(sku, order, 1, 0, false).status()).isEqualTo("CANCELLED");
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(5);
    }

    @Test
    void aCallerAtAnotherEpochIsStaleAndChangesNothing() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.loadAt(sku, 2, 10);

        Reply older = redis.reserve(sku, order, 3, 0, false, 1);
        Reply newer = redis.reserve(sku, order, 3, 0, true, 3);

        assertThat(older.values()).containsExactly("STALE", 2L);
        assertThat(newer.values()).containsExactly("STALE", 2L);
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
        assertThat(redis.field(sku, 0, 'q')).isZero();
        assertThat(redis.outboxLength(sku)).isZero();
        assertThat(redis.line(sku, order)).as("no line record").isEqualTo("$-1");
    }

    @Test
    void aCallerAtAnotherEpochIsStaleEvenForAnOrderItAlreadyReserved() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.loadAt(sku, 2, 10);
        assertThat(redis.reserve(sku, order, 3, 0, false, 2).status()).isEqualTo("OK");

        assertThat(redis.reserve(sku, order, 3, 0, false, 1).values()).containsExactly("STALE", 2L);
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(7);
    }

    @Test
    void aLineRecordOfAnotherEpochIsForeignAndChangesNothing() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 3, 0, false);
        String record = redis.line(sku, order);
        redis.loadAt(sku, 2, 10);

        Reply reply = redis.reserve(sku, order, 3, 0, false, 2);

        assertThat(reply.values()).containsExactly("FOREIGN", "RESERVED", 0L, 3L, 1L);
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
        assertThat(redis.field(sku, 0, 'r')).isZero();
        assertThat(redis.outboxLength(sku)).isZero();
        assertThat(redis.line(sku, order)).as("left for the database to rewrite").isEqualTo(record);
    }

    @Test
    void aLineRecordInTheOldThreeFieldFormatIsForeignOfEpochZero() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10, 10);
        redis.putLine(sku, order, "CONFIRMED|1|2");

        Reply reply = redis.reserve(sku, order, 2, 1, false);

        assertThat(reply.values()).containsExactly("FOREIGN", "CONFIRMED", 1L, 2L, 0L);
        assertThat(redis.total(sku, 'a', 2)).isEqualTo(20);
        assertThat(redis.outboxLength(sku)).isZero();
        assertThat(redis.line(sku, order)).isEqualTo("CONFIRMED|1|2");
    }

    @Test
    void aTombstoneOfAnotherEpochIsForeignNotCancelled() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.loadAt(sku, 2, 5);
        redis.putLine(sku, order, "CANCELLED|-1|0|1|");

        assertThat(redis.reserve(sku, order, 1, 0, false, 2).values())
                .containsExactly("FOREIGN", "CANCELLED", -1L, 0L, 1L);
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(5);
    }

    @Test
    void alreadyReturnsTheEntriesOfTheOrdersOwnEventsWhichAreTheOnesInTheOutbox() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 1, 5, 0, 6);
        Reply first = redis.reserve(sku, order, 4, 0, true);
        assertThat(first.status()).isEqualTo("OK");
        long outbox = redis.outboxLength(sku);

        Reply retry = redis.reserve(sku, order, 4, 0, true);

        assertThat(retry.status()).isEqualTo("ALREADY");
        assertThat(retry.number(1)).isZero();
        assertThat(retry.string(2)).isEqualTo("CONFIRMED");
        List<String> entries = List.of(retry.string(3).split(","));
        assertThat(entries).as("the RESERVE and CONFIRM entries, not the transfers'")
                .isEqualTo(redis.outboxIds(sku, "o", order.value())).hasSize(2);
        assertThat(redis.outbox(sku).stream().filter(e -> order.value().equals(e.get("o"))).map(e -> e.get("op")))
                .containsExactly("RESERVE", "CONFIRM");
        List<String> fromReply = new java.util.ArrayList<>();
        for (int i = 4; i + 10 <= first.size(); i += 10) {
            if (List.of("RESERVE", "CONFIRM").contains(first.string(i + 3))) {
                fromReply.add(first.string(i));
            }
        }
        assertThat(entries).as("the entries the first answer named").isEqualTo(fromReply);
        assertThat(redis.outboxLength(sku)).isEqualTo(outbox);
        assertThat(redis.total(sku, 's', 4)).isEqualTo(4);
    }

    @Test
    void alreadyOfAHoldReturnsItsReserveEntry() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        Reply first = redis.reserve(sku, order, 2, 0, false);

        Reply retry = redis.reserve(sku, order, 2, 0, false);

        assertThat(retry.values()).containsExactly("ALREADY", 0L, "RESERVED", first.string(4));
        assertThat(redis.outboxIds(sku)).containsExactly(first.string(4));
    }

    @Test
    void stillRunsAfterRedisForgetsItsScripts() {
        SkuId sku = ScriptFixture.sku();
        redis.load(sku, 5);
        assertThat(redis.server.command("SCRIPT", "FLUSH")).isEqualTo("+OK");

        assertThat(redis.reserve(sku, ScriptFixture.order(), 1, 0, false).status()).isEqualTo("OK");
        assertThat(redis.reserve(sku, ScriptFixture.order(), 1, 0, false).status()).isEqualTo("OK");
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(3);
    }
}
