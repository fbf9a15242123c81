package io.stockguard.reservation.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.journal.EventIds;
import io.stockguard.stock.SkuId;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The scripts that move stock without an order: restock.lua, transfer.lua, load.lua, set_mode.lua, snapshot.lua. */
class StockScriptsIT {

    private static ScriptFixture redis;

    @BeforeAll
    static void start() {
        redis = new ScriptFixture();
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    @Nested
    class Restock {
        @Test
        void addsToEachBucketAndToItsJournaledSumWithoutAnOutboxEntry() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 1, 2);

            Reply reply = redis.run(Script.RESTOCK, List.of(Keys.meta(sku), Keys.buckets(sku)), List.of("5", "0"));

            assertThat(reply.status()).isEqualTo("OK");
            assertThat(reply.number(1)).isEqualTo(8);
            assertThat(redis.field(sku, 0, 'a')).isEqualTo(6);
            assertThat(redis.field(sku, 0, 'j')).isEqualTo(5);
            assertThat(redis.outboxLength(sku)).isZero();
        }

        @Test
        void refusesTheWrongNumberOfBucketsNegativeDeltasAndUnknownSkus() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 1, 2);
            List<String> keys = List.of(Keys.meta(sku), Keys.buckets(sku));
            assertThat(redis.run(Script.RESTOCK, keys, List.of("5")).status()).isEqualTo("BUCKETS");
            assertThatThrownBy(() -> redis.run(Script.RESTOCK, keys, List.of("-1", "0")))
                    .hasMessageContaining("must not be negative");
            SkuId unknown = ScriptFixture.sku();
            assertThat(redis.run(Script.RESTOCK, List.of(Keys.meta(unknown), Keys.buckets(unknown)), List.of("1"))
                    .status()).isEqualTo("NOT_LOADED");
            assertThat(redis.total(sku, 'a', 2)).isEqualTo(3);
        }
    }

    @Nested
    class Transfer {
        private Reply transfer(SkuId sku, int from, int to, int qty) {
            return redis.run(Script.TRANSFER, List.of(Keys.meta(sku), Keys.buckets(sku), Keys.outbox(sku)),
                    List.of(Integer.toString(from), Integer.toString(to), Integer.toString(qty), "t-1", "1000", "",
                            "test", EventIds.next(), EventIds.next()));
        }

        @Test
        void movesStockBetweenBucketsAsTwoJournaledEvents() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 5, 0);

            assertThat(transfer(sku, 0, 1, 3).status()).isEqualTo("OK");

            assertThat(redis.field(sku, 0, 'a')).isEqualTo(2);
            assertThat(redis.field(sku, 1, 'a')).isEqualTo(3);
            assertThat(redis.field(sku, 0, 'j') + redis.field(sku, 1, 'j')).isZero();
            assertThat(redis.outbox(sku).stream().map(e -> e.get("op")).toList())
                    .containsExactly("TRANSFER_OUT", "TRANSFER_IN");
            assertThat(redis.outbox(sku)).allSatisfy(e -> assertThat(e).containsEntry("rq", "t-1"));
        }

        @Test
        void refusesMoreThanTheSourceHasAndBadBuckets() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 2, 0);
            assertThat(transfer(sku, 0, 1, 3).status()).isEqualTo("SHORT");
            assertThat(transfer(sku, 0, 0, 1).status()).isEqualTo("BUCKETS");
            assertThat(transfer(sku, 0, 5, 1).status()).isEqualTo("BUCKETS");
            assertThat(redis.outboxLength(sku)).isZero();
            assertThat(redis.field(sku, 0, 'a')).isEqualTo(2);
        }
    }

    @Nested
    class Load {
        private Reply load(SkuId sku, String how, long epoch, long available) {
            return redis.run(Script.LOAD, List.of(Keys.meta(sku), Keys.buckets(sku), Keys.outbox(sku)),
                    List.of(how, "1", Long.toString(epoch), "NORMAL", Long.toString(available), "0", "0", "7"));
        }

        @Test
        void preheatLoadsOnlyWhatIsAbsentAndRebaseOnlyUnderANewerEpoch() {
            SkuId sku = ScriptFixture.sku();
            assertThat(load(sku, "PREHEAT", 3, 10).status()).isEqualTo("LOADED");
            assertThat(redis.field(sku, 0, 'j')).as("journaled sum starts at the applied sum").isEqualTo(7);
            assertThat(load(sku, "PREHEAT", 4, 99).status()).isEqualTo("PRESENT");
            assertThat(load(sku, "REBASE", 3, 99).status()).isEqualTo("STALE");
            assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
            assertThat(load(sku, "REBASE", 4, 20).status()).isEqualTo("LOADED");
            assertThat(redis.field(sku, 0, 'a')).isEqualTo(20);
            assertThat(redis.field(sku, 0, 'q')).as("sequences restart in the new epoch").isZero();
        }

        @Test
        void refusesToLoadOverChangesNotYetInTheDatabase() {
            SkuId sku = ScriptFixture.sku();
            load(sku, "PREHEAT", 1, 10);
            redis.reserve(sku, ScriptFixture.order(), 1, 0, false);

            Reply reply = load(sku, "REBASE", 2, 10);

            assertThat(reply.status()).isEqualTo("OUTBOX");
            assertThat(redis.field(sku, 0, 'a')).isEqualTo(9);
        }
    }

    @Nested
    class ModeAndSnapshot {
        @Test
        void setsTheModeAndReadsEverythingAtOnce() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 4, 6);
            redis.reserve(sku, ScriptFixture.order(), 1, 1, false);

            Reply previous = redis.run(Script.SET_MODE, List.of(Keys.meta(sku)), List.of("FROZEN"));
            Reply snapshot = redis.run(Script.SNAPSHOT, List.of(Keys.meta(sku), Keys.buckets(sku), Keys.outbox(sku)),
                    List.of());

            assertThat(previous.string(1)).isEqualTo("NORMAL");
            assertThat(snapshot.values()).containsExactly("OK", 1L, "FROZEN", 2L, 1L,
                    4L, 0L, 0L, 0L, 0L,
                    5L, 1L, 0L, -1L, 1L);
            SkuId unknown = ScriptFixture.sku();
            assertThat(redis.run(Script.SET_MODE, List.of(Keys.meta(unknown)), List.of("FROZEN")).status())
                    .isEqualTo("NOT_LOADED");
            assertThat(redis.run(Script.SNAPSHOT, List.of(Keys.meta(unknown), Keys.buckets(unknown),
                    Keys.outbox(unknown)), List.of()).status()).isEqualTo("NOT_LOADED");
        }
    }
}
