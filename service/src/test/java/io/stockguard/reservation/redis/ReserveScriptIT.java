package io.stockguard.reservation.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** reserve.lua against a real Redis, including the negative space. */
class ReserveScriptIT {

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
    void takesFromTheHomeBucketAndJournalsTheChange() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10, 10);

        Reply reply = redis.reserve(sku, order, 3, 1, false);

        assertThat(reply.status()).isEqualTo("OK");
        assertThat(reply.number(1)).isEqualTo(1);
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
        assertThat(redis.line(sku, order)).isEqualTo("RESERVED|1|3");
    }

    @Test
    void aRetryOfTheSameOrderReturnsItsLineAndTakesNothing() {
        SkuId sku = ScriptFixture.sku();
        OrderId order = ScriptFixture.order();
        redis.load(sku, 10);
        redis.reserve(sku, order, 4, 0, false);

        Reply retry = redis.reserve(sku, order, 4, 0, false);

        assertThat(retry.status()).isEqualTo("ALREADY");
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

        assertThat(redis.reserve(sku, order, 2, 0, true).status()).isEqualTo("OK");

        assertThat(redis.field(sku, 0, 's')).isEqualTo(2);
        assertThat(redis.field(sku, 0, 'r')).isZero();
        assertThat(redis.outbox(sku).stream().map(e -> e.get("op")).toList()).containsExactly("RESERVE", "CONFIRM");
        assertThat(redis.line(sku, order)).isEqualTo("CONFIRMED|0|2");
    }

    @Test
    void aThrottledSkuAcceptsItsRateRefillsWithTimeAndKeepsItAcrossAReload() {
        SkuId sku = ScriptFixture.sku();
        redis.load(sku, 100);
        redis.run(Script.SET_MODE, List.of(Keys.meta(sku)), List.of("THROTTLED", "2"));
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
        assertThat(redis.run(Script.LOAD, List.of(Keys.meta(reloaded), Keys.buckets(reloaded), Keys.outbox(reloaded)),
                List.of("REBASE", "1", "2", "THROTTLED", "50", "0", "0", "0", "3")).status()).isEqualTo("LOADED");
        for (int i = 0; i < 3; i++) {
            assertThat(redis.reserveAt(reloaded, ScriptFixture.order(), 1, 30_000).status()).isEqualTo("OK");
        }
        assertThat(redis.reserveAt(reloaded, ScriptFixture.order(), 1, 30_000).status()).isEqualTo("THROTTLED");
    }

    @Test
    void refusesWhenFrozenNotLoadedOrTheOutboxIsFull() {
        SkuId frozen = ScriptFixture.sku();
        redis.load(frozen, 5);
        redis.run(Script.SET_MODE, List.of(Keys.meta(frozen)), List.of("FROZEN"));
        assertThat(redis.reserve(frozen, ScriptFixture.order(), 1, 0, false).status()).isEqualTo("FROZEN");
        assertThat(redis.field(frozen, 0, 'a')).isEqualTo(5);

        assertThat(redis.reserve(ScriptFixture.sku(), ScriptFixture.order(), 1, 0, false).status())
                .isEqualTo("NOT_LOADED");

        SkuId backlogged = ScriptFixture.sku();
        redis.load(backlogged, 5);
        OrderId order = ScriptFixture.order();
        List<String> arguments = new java.util.ArrayList<>(List.of(order.value(), "1", "0", "0", "1000", "0", "fp",
                "", "test", "3600", "0"));
        for (int i = 0; i < 4; i++) {
            arguments.add(io.stockguard.journal.EventIds.next());
        }
        assertThat(redis.run(Script.RESERVE, Keys.reserveKeys(backlogged, order), arguments).status())
                .isEqualTo("BACKLOG");
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
    void stillRunsAfterRedisForgetsItsScripts() {
        SkuId sku = ScriptFixture.sku();
        redis.load(sku, 5);
        assertThat(redis.server.command("SCRIPT", "FLUSH")).isEqualTo("+OK");

        assertThat(redis.reserve(sku, ScriptFixture.order(), 1, 0, false).status()).isEqualTo("OK");
        assertThat(redis.reserve(sku, ScriptFixture.order(), 1, 0, false).status()).isEqualTo("OK");
        assertThat(redis.field(sku, 0, 'a')).isEqualTo(3);
    }
}
