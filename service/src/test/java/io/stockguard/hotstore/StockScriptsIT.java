package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventIds;
import io.stockguard.ledger.DatabaseSplit;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The scripts that move stock without an order: stock.lua, load.lua, set_mode.lua, snapshot.lua. */
class StockScriptsIT {

    private static final long EPOCH = ScriptFixture.EPOCH;

    @RegisterExtension
    static final ScriptFixture redis = new ScriptFixture();

    /** One event of an OK answer of stock.lua (or reserve.lua): 10 values from {@code at}. */
    record Event(String entry, String id, long bucket, String op, long da, long seq, long after, long journaled) {
        static List<Event> of(Reply reply, int from) {
            List<Event> events = new ArrayList<>();
            for (int i = from; i + 10 <= reply.size(); i += 10) {
                assertThat(reply.number(i + 5)).as("reserved delta").isZero();
                assertThat(reply.number(i + 6)).as("sold delta").isZero();
                events.add(new Event(reply.string(i), reply.string(i + 1), reply.number(i + 2), reply.string(i + 3),
                        reply.number(i + 4), reply.number(i + 7), reply.number(i + 8), reply.number(i + 9)));
            }
            return events;
        }
    }

    @Nested
    class Stock {

        private Reply stock(SkuId sku, String op, String how, long amount, String requestId, String fingerprint) {
            return redis.stock(sku, op, how, amount, requestId, fingerprint, EPOCH, 100_000);
        }

        private Reply restock(SkuId sku, long amount) {
            return stock(sku, "RESTOCK", "DELTA", amount, "", "");
        }

        private Reply adjust(SkuId sku, long amount) {
            return stock(sku, "ADJUST", "DELTA", amount, "", "");
        }

        @Test
        void aRestockIsSpreadEvenlyWithTheFirstBucketsTakingTheRemainder() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 0, 5, 0, 2);

            Reply reply = stock(sku, "RESTOCK", "DELTA", 10, "rq-" + sku, "fp-1");

            assertThat(reply.values().subList(0, 4)).as("OK epoch total-before total-after")
                    .containsExactly("OK", EPOCH, 7L, 17L);
            assertThat(redis.fields(sku, 'a', 4)).containsExactly(3, 8, 2, 4);
            List<Event> events = Event.of(reply, 5);
            assertThat(events).extracting(Event::bucket).containsExactly(0L, 1L, 2L, 3L);
            assertThat(events).extracting(Event::da).containsExactly(3L, 3L, 2L, 2L);
            assertThat(events).extracting(Event::op).containsOnly("RESTOCK");
            assertThat(events).extracting(Event::seq).containsOnly(1L);
            assertThat(events).extracting(Event::after).containsExactly(3L, 8L, 2L, 4L);
            assertThat(events).extracting(Event::journaled).containsExactly(3L, 3L, 2L, 2L);
            assertThat(events).extracting(Event::entry).isEqualTo(redis.outboxIds(sku));
            List<Map<String, String>> outbox = redis.outbox(sku);
            for (int b = 0; b < 4; b++) {
                Event event = events.get(b);
                assertThat(outbox.get(b)).containsEntry("id", event.id()).containsEntry("sku", sku.value())
                        .containsEntry("b", Integer.toString(b)).containsEntry("op", "RESTOCK").containsEntry("o", "")
                        .containsEntry("rq", "rq-" + sku).containsEntry("fp", "fp-1")
                        .containsEntry("q", Long.toString(event.da())).containsEntry("da", Long.toString(event.da()))
                        .containsEntry("dr", "0").containsEntry("ds", "0").containsEntry("ep", "1")
                        .containsEntry("sq", "1").containsEntry("ha", Long.toString(event.after()))
                        .containsEntry("hj", Long.toString(event.journaled()));
            }
        }

        @Test
        void aBucketWhoseShareIsZeroHasNoEventAndKeepsItsSequence() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 1, 1, 1, 1);

            Reply reply = restock(sku, 2);

            assertThat(Event.of(reply, 5)).extracting(Event::bucket).containsExactly(0L, 1L);
            assertThat(redis.fields(sku, 'a', 4)).containsExactly(2, 2, 1, 1);
            assertThat(redis.fields(sku, 'q', 4)).containsExactly(1, 1, 0, 0);
            assertThat(redis.fields(sku, 'j', 4)).containsExactly(1, 1, 0, 0);
            assertThat(redis.outboxLength(sku)).isEqualTo(2);
        }

        @Test
        void aRemovalTakesInProportionToWhatEachBucketHas() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 10, 30, 0, 60);

            Reply reply = adjust(sku, -50);

            assertThat(reply.values().subList(0, 4)).containsExactly("OK", EPOCH, 100L, 50L);
            assertThat(redis.fields(sku, 'a', 4)).containsExactly(5, 15, 0, 30);
            assertThat(Event.of(reply, 5)).extracting(Event::bucket).as("nothing taken from the empty bucket")
                    .containsExactly(0L, 1L, 3L);
            assertThat(Event.of(reply, 5)).extracting(Event::op).containsOnly("ADJUST");
            assertThat(redis.outbox(sku)).extracting(e -> e.get("q")).containsExactly("5", "15", "30");
            assertThat(redis.outbox(sku)).extracting(e -> e.get("da")).containsExactly("-5", "-15", "-30");
        }

        @Test
        void aRemovalRoundsFromTheFullestBucketsAndNeverTakesMoreThanABucketHas() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 3, 3, 3);
            assertThat(adjust(sku, -8).status()).isEqualTo("OK");
            assertThat(redis.fields(sku, 'a', 3)).as("2 each, then 1 more from the first fullest two")
                    .containsExactly(0, 0, 1);

            SkuId lopsided = ScriptFixture.sku();
            redis.load(lopsided, 1, 1, 8);
            assertThat(adjust(lopsided, -5).status()).isEqualTo("OK");
            assertThat(redis.fields(lopsided, 'a', 3)).containsExactly(1, 1, 3);

            SkuId everything = ScriptFixture.sku();
            redis.load(everything, 1, 2, 0, 7);
            assertThat(adjust(everything, -10).status()).isEqualTo("OK");
            assertThat(redis.fields(everything, 'a', 4)).containsOnly(0);
        }

        @Test
        void splitsEveryChangeExactlyAsTheDatabaseLedgerDoes() {
            Random random = new Random(11);
            for (int run = 0; run < 150; run++) {
                int n = 1 + random.nextInt(8);
                long[] available = new long[n];
                for (int b = 0; b < n; b++) {
                    available[b] = random.nextInt(40);
                }
                long sum = Arrays.stream(available).sum();
                SkuId sku = ScriptFixture.sku();
                redis.load(sku, available);
                boolean removal = sum > 0 && random.nextBoolean();
                long quantity = removal ? 1 + random.nextLong(sum) : random.nextInt(50);
                long[] expected = removal ? DatabaseSplit.proportional(quantity, available)
                        : DatabaseSplit.even(quantity, n);

                Reply reply = removal ? adjust(sku, -quantity) : restock(sku, quantity);

                assertThat(reply.status()).isEqualTo("OK");
                long[] after = redis.fields(sku, 'a', n);
                for (int b = 0; b < n; b++) {
                    long change = removal ? available[b] - after[b] : after[b] - available[b];
                    assertThat(change).as("run %d, bucket %d of %s, %s %d", run, b, Arrays.toString(available),
                            removal ? "removing" : "adding", quantity).isEqualTo(expected[b]);
                    assertThat(after[b]).isNotNegative();
                }
            }
        }

        @Test
        void setChangesTheTotalCountingReservedAndSoldStock() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, EPOCH, "NORMAL", 0, new long[] {10, 3, 2, 0}, new long[] {10, 0, 0, 0});

            Reply up = stock(sku, "ADJUST", "SET", 30, "", "");
            assertThat(up.values().subList(0, 4)).containsExactly("OK", EPOCH, 25L, 30L);
            assertThat(redis.fields(sku, 'a', 2)).containsExactly(13, 12);

            Reply down = stock(sku, "ADJUST", "SET", 15, "", "");
            assertThat(down.values().subList(0, 4)).containsExactly("OK", EPOCH, 30L, 15L);
            assertThat(redis.fields(sku, 'a', 2)).containsExactly(5, 5);
            assertThat(redis.field(sku, 0, 'r')).as("held stock is never taken").isEqualTo(3);
            assertThat(redis.field(sku, 0, 's')).isEqualTo(2);

            Reply same = stock(sku, "ADJUST", "SET", 15, "", "");
            assertThat(same.values()).as("no change, no event: only the gives before it").hasSize(5)
                    .startsWith("OK", EPOCH, 15L, 15L);
            assertThat(redis.outboxLength(sku)).isEqualTo(4);
        }

        @Test
        void removingMoreThanIsAvailableIsShortAndChangesNothing() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, EPOCH, "NORMAL", 0, new long[] {2, 4, 0, 0}, new long[] {3, 0, 1, 0});
            String request = "rq-short-" + sku;

            Reply reply = stock(sku, "ADJUST", "DELTA", -6, request, "fp-1");
            Reply set = stock(sku, "ADJUST", "SET", 4, "", "");

            assertThat(reply.values()).as("what is available, not counting held or sold stock")
                    .containsExactly("SHORT", 5L);
            assertThat(set.values()).as("a total below what is held and sold").containsExactly("SHORT", 5L);
            assertThat(redis.fields(sku, 'a', 2)).containsExactly(2, 3);
            assertThat(redis.fields(sku, 'j', 2)).containsExactly(0, 0);
            assertThat(redis.fields(sku, 'q', 2)).containsExactly(0, 0);
            assertThat(redis.outboxLength(sku)).isZero();
            assertThat(redis.server.command("GET", ScriptFixture.request(sku, request)))
                    .as("a refused request is not recorded").isEqualTo("$-1");
            restock(sku, 1);
            assertThat(stock(sku, "ADJUST", "DELTA", -6, request, "fp-1").status())
                    .as("its retry, once there is enough").isEqualTo("OK");
        }

        @Test
        void aReplayWithTheSameRequestIdAndFingerprintReturnsTheEntriesAndChangesNothing() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 0, 0);
            String request = "rq-" + sku;
            Reply first = stock(sku, "RESTOCK", "DELTA", 7, request, "fp-7");
            List<String> entries = Event.of(first, 5).stream().map(Event::entry).toList();
            assertThat(redis.server.command("GET", ScriptFixture.request(sku, request)))
                    .as("the fingerprint, the entries, the epoch it was made under")
                    .isEqualTo("fp-7|" + String.join(",", entries) + "|" + EPOCH);

            Reply replay = stock(sku, "RESTOCK", "DELTA", 7, request, "fp-7");
            Reply replayWhenFull = redis.stock(sku, "RESTOCK", "DELTA", 7, request, "fp-7", EPOCH, 0);

            assertThat(replay.values()).containsExactly("REPLAYED", 7L, String.join(",", entries));
            assertThat(replayWhenFull.status()).as("a replay is answered before the backlog is looked at")
                    .isEqualTo("REPLAYED");
            assertThat(entries).hasSize(2).isEqualTo(redis.outboxIds(sku));
            assertThat(redis.fields(sku, 'a', 2)).containsExactly(4, 3);
            assertThat(redis.fields(sku, 'j', 2)).containsExactly(4, 3);
            assertThat(redis.fields(sku, 'q', 2)).containsExactly(1, 1);
        }

        @Test
        void aReplayOfARemovalIsReplayedEvenWhenTheStockIsGoneSince() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 5);
            String request = "rq-" + sku;
            assertThat(stock(sku, "ADJUST", "DELTA", -3, request, "fp").status()).isEqualTo("OK");
            adjust(sku, -2);

            assertThat(stock(sku, "ADJUST", "DELTA", -3, request, "fp").status()).isEqualTo("REPLAYED");
            assertThat(redis.field(sku, 0, 'a')).isZero();
        }

        /**
         * The load that begins an epoch empties the outbox, so a change of an older epoch whose
         * entries were still there never reached the database (the caller asks the database before
         * the script): its request record is not believed, and the retry makes the change.
         */
        @Test
        void aRequestRecordOfAnotherEpochIsNotBelievedAndTheRetryMakesTheChange() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 10);
            String request = "rq-" + sku;
            assertThat(stock(sku, "RESTOCK", "DELTA", 5, request, "fp-5").status()).isEqualTo("OK");
            redis.loadAt(sku, EPOCH + 1, 10);

            Reply retry = redis.stock(sku, "RESTOCK", "DELTA", 5, request, "fp-5", EPOCH + 1, 100_000);
            Reply again = redis.stock(sku, "RESTOCK", "DELTA", 5, request, "fp-5", EPOCH + 1, 100_000);

            assertThat(retry.values().subList(0, 4)).containsExactly("OK", EPOCH + 1, 10L, 15L);
            assertThat(again.status()).as("a retry under the same epoch is a replay").isEqualTo("REPLAYED");
            assertThat(redis.field(sku, 0, 'a')).isEqualTo(15L);
            assertThat(redis.server.command("GET", ScriptFixture.request(sku, request))).endsWith("|" + (EPOCH + 1));
        }

        @Test
        void aRequestRecordWrittenBeforeRecordsCarriedTheirEpochIsBelieved() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 10);
            String request = "rq-" + sku;
            redis.server.command("SET", ScriptFixture.request(sku, request), "fp-5|");

            assertThat(stock(sku, "RESTOCK", "DELTA", 5, request, "fp-5").values())
                    .containsExactly("REPLAYED", 10L, "");
            assertThat(stock(sku, "RESTOCK", "DELTA", 6, request, "fp-6").status()).isEqualTo("CONFLICT");
            assertThat(redis.field(sku, 0, 'a')).isEqualTo(10L);
        }

        @Test
        void anotherFingerprintUnderTheSameRequestIdIsAConflictAndChangesNothing() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 0, 0);
            String request = "rq-" + sku;
            stock(sku, "RESTOCK", "DELTA", 7, request, "fp-7");

            Reply reply = stock(sku, "RESTOCK", "DELTA", 8, request, "fp-8");

            assertThat(reply.values()).containsExactly("CONFLICT");
            assertThat(redis.total(sku, 'a', 2)).isEqualTo(7);
            assertThat(redis.outboxLength(sku)).isEqualTo(2);
            assertThat(redis.server.command("GET", ScriptFixture.request(sku, request))).startsWith("fp-7|");
        }

        @Test
        void withoutARequestIdEveryCallIsANewChange() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 0);

            assertThat(restock(sku, 2).status()).isEqualTo("OK");
            assertThat(restock(sku, 2).status()).isEqualTo("OK");

            assertThat(redis.field(sku, 0, 'a')).isEqualTo(4);
            assertThat(redis.outbox(sku)).extracting(e -> e.get("rq")).containsOnly("");
        }

        @Test
        void refusesAtTheOutboxMaximumAsBacklogAndChangesNothing() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 10);
            redis.reserve(sku, ScriptFixture.order(), 1, 0, false);
            redis.reserve(sku, ScriptFixture.order(), 1, 0, false);
            String request = "rq-" + sku;

            Reply full = redis.stock(sku, "RESTOCK", "DELTA", 5, request, "fp", EPOCH, 2);

            assertThat(full.values()).containsExactly("BACKLOG", 2L);
            assertThat(redis.field(sku, 0, 'a')).isEqualTo(8);
            assertThat(redis.outboxLength(sku)).isEqualTo(2);
            assertThat(redis.server.command("GET", ScriptFixture.request(sku, request))).isEqualTo("$-1");
            assertThat(redis.stock(sku, "RESTOCK", "DELTA", 5, request, "fp", EPOCH, 3).status()).isEqualTo("OK");
            assertThat(redis.field(sku, 0, 'a')).isEqualTo(13);
        }

        @Test
        void aCallerAtAnotherEpochIsStaleAndChangesNothing() {
            SkuId sku = ScriptFixture.sku();
            redis.loadAt(sku, 2, 5);
            String request = "rq-" + sku;
            assertThat(redis.stock(sku, "RESTOCK", "DELTA", 5, request, "fp", 2, 100).status()).isEqualTo("OK");

            assertThat(redis.stock(sku, "RESTOCK", "DELTA", 1, "", "", 1, 100).values())
                    .containsExactly("STALE", 2L);
            assertThat(redis.stock(sku, "ADJUST", "SET", 0, "", "", 3, 100).values()).containsExactly("STALE", 2L);
            assertThat(redis.stock(sku, "RESTOCK", "DELTA", 5, request, "fp", 1, 100).values())
                    .as("even the replay of a change it made").containsExactly("STALE", 2L);
            assertThat(redis.field(sku, 0, 'a')).isEqualTo(10);
            assertThat(redis.outboxLength(sku)).isEqualTo(1);

            SkuId unknown = ScriptFixture.sku();
            assertThat(redis.stock(unknown, "RESTOCK", "DELTA", 1, "", "", EPOCH, 100).values())
                    .containsExactly("NOT_LOADED");
        }

        @Test
        void journaledSumsAndSequencesMoveWithEachBucketsAvailable() {
            SkuId sku = ScriptFixture.sku();
            long[] loaded = {6, 0, 9};
            long[] applied = {4, -1, 0};
            redis.load(sku, EPOCH, "NORMAL", 0, new long[] {loaded[0], 0, 0, applied[0]},
                    new long[] {loaded[1], 0, 0, applied[1]}, new long[] {loaded[2], 0, 0, applied[2]});

            List<Reply> replies = List.of(
                    redis.reserve(sku, ScriptFixture.order(), 4, 1, false),
                    restock(sku, 7),
                    adjust(sku, -5),
                    stock(sku, "ADJUST", "SET", 30, "", ""),
                    redis.reserve(sku, ScriptFixture.order(), 2, 2, true));

            assertThat(replies).extracting(Reply::status).containsOnly("OK");
            long[] available = redis.fields(sku, 'a', 3);
            long[] journaled = redis.fields(sku, 'j', 3);
            for (int b = 0; b < 3; b++) {
                assertThat(journaled[b] - applied[b]).as("bucket %d: J moved by what A moved", b)
                        .isEqualTo(available[b] - loaded[b]);
            }
            Map<String, Long> lastSequence = new HashMap<>();
            for (Map<String, String> entry : redis.outbox(sku)) {
                int b = Integer.parseInt(entry.get("b"));
                long sequence = Long.parseLong(entry.get("sq"));
                Long before = lastSequence.put(entry.get("b"), sequence);
                assertThat(sequence).as("bucket %d's sequence", b).isEqualTo(before == null ? 1 : before + 1);
                assertThat(Long.parseLong(entry.get("ha")) - Long.parseLong(entry.get("hj")))
                        .as("R - J of bucket %d after %s", b, entry.get("op")).isEqualTo(loaded[b] - applied[b]);
            }
            for (int b = 0; b < 3; b++) {
                assertThat(redis.field(sku, b, 'q')).isEqualTo(lastSequence.getOrDefault(Integer.toString(b), 0L));
            }
            for (int i = 1; i <= 3; i++) {
                for (Event event : Event.of(replies.get(i), 5)) {
                    assertThat(event.after() - event.journaled()).isEqualTo(loaded[(int) event.bucket()]
                            - applied[(int) event.bucket()]);
                }
            }
        }

        @Test
        void aTotalUpToTenToTheTwelfthIsWrittenAsIntegers() {
            long trillion = 1_000_000_000_000L;
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 0, 0, 0);

            Reply set = stock(sku, "RESTOCK", "SET", trillion, "rq-" + sku, "fp");

            assertThat(set.values().subList(0, 4)).containsExactly("OK", EPOCH, 0L, trillion);
            assertThat(Event.of(set, 5)).extracting(Event::da)
                    .containsExactly(333_333_333_334L, 333_333_333_333L, 333_333_333_333L);
            assertThat(redis.fields(sku, 'a', 3)).containsExactly(333_333_333_334L, 333_333_333_333L, 333_333_333_333L);
            assertWrittenAsIntegers(sku, 3);
            assertThat(stock(sku, "RESTOCK", "SET", trillion, "rq-" + sku, "fp").values().subList(0, 2))
                    .containsExactly("REPLAYED", trillion);

            Reply removal = adjust(sku, -(trillion - 1));
            assertThat(removal.values().subList(0, 4)).containsExactly("OK", EPOCH, trillion, 1L);
            assertThat(redis.total(sku, 'a', 3)).isEqualTo(1);
            assertThat(Arrays.stream(redis.fields(sku, 'a', 3)).boxed())
                    .allSatisfy(a -> assertThat(a).isBetween(0L, 1L));
            assertWrittenAsIntegers(sku, 3);

            SkuId single = ScriptFixture.sku();
            redis.load(single, 0);
            assertThat(restock(single, trillion).status()).isEqualTo("OK");
            assertThat(redis.rawField(single, 0, 'a')).isEqualTo("1000000000000");
            assertThat(redis.rawField(single, 0, 'j')).isEqualTo("1000000000000");
            assertThat(redis.outbox(single).getFirst()).containsEntry("q", "1000000000000")
                    .containsEntry("da", "1000000000000").containsEntry("ha", "1000000000000")
                    .containsEntry("hj", "1000000000000");
            assertWrittenAsIntegers(single, 1);
        }

        private void assertWrittenAsIntegers(SkuId sku, int buckets) {
            for (int b = 0; b < buckets; b++) {
                for (char field : new char[] {'a', 'r', 's', 'j', 'q'}) {
                    assertThat(redis.rawField(sku, b, field)).as("bucket %d field %s", b, field).matches("-?\\d+");
                }
            }
            for (Map<String, String> entry : redis.outbox(sku)) {
                for (String field : List.of("b", "q", "da", "dr", "ds", "ep", "sq", "ha", "hj")) {
                    assertThat(entry.get(field)).as("outbox field %s of %s", field, entry).matches("-?\\d+");
                }
            }
        }
    }

    @Nested
    class Load {

        @Test
        void loadsCountersAndMetaWithTheJournaledSumAtTheAppliedSum() {
            SkuId sku = ScriptFixture.sku();

            Reply reply = redis.load(sku, 3, "THROTTLED", 5, new long[] {10, 2, 1, 7}, new long[] {4, 0, 3, -2});

            assertThat(reply.values()).containsExactly("LOADED");
            assertThat(redis.snapshot(sku).values()).containsExactly("OK", 3L, "THROTTLED", 2L, 0L,
                    10L, 2L, 1L, 7L, 0L,
                    4L, 0L, 3L, -2L, 0L);
            assertThat(redis.meta(sku, "rate")).isEqualTo("5");
            assertThat(redis.meta(sku, "tk")).as("a full second's worth of tokens").isEqualTo("5");
        }

        @Test
        void theSameEpochAgainReplacesCountersAndOutbox() {
            SkuId sku = ScriptFixture.sku();
            OrderId order = ScriptFixture.order();
            redis.loadAt(sku, 3, 10);
            redis.reserve(sku, order, 4, 0, false, 3);

            Reply again = redis.loadAt(sku, 3, 20);

            assertThat(again.values()).containsExactly("LOADED");
            assertThat(redis.field(sku, 0, 'a')).isEqualTo(20);
            assertThat(redis.field(sku, 0, 'r')).isZero();
            assertThat(redis.field(sku, 0, 'j')).isZero();
            assertThat(redis.field(sku, 0, 'q')).as("the sequence restarts").isZero();
            assertThat(redis.outboxLength(sku)).isZero();
            assertThat(redis.reserve(sku, ScriptFixture.order(), 1, 0, false, 3).status()).isEqualTo("OK");
        }

        @Test
        void anOlderEpochIsStaleAndChangesNothing() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 4, "FROZEN", 0, new long[] {10, 0, 0, 0});
            redis.setMode(sku, "THROTTLED", 9, 4);
            redis.reserveAt(sku, ScriptFixture.order(), 3, 5_000, 4);
            List<Object> before = redis.snapshot(sku).values();

            Reply reply = redis.load(sku, 3, "NORMAL", 0, new long[] {99, 0, 0, 0}, new long[] {99, 0, 0, 0});

            assertThat(reply.values()).containsExactly("STALE", 4L);
            assertThat(redis.snapshot(sku).values()).isEqualTo(before);
            assertThat(redis.meta(sku, "rate")).isEqualTo("9");
            assertThat(redis.meta(sku, "ts")).isEqualTo("5000");
            assertThat(redis.outboxLength(sku)).isEqualTo(1);
        }

        @Test
        void aNewerEpochReplacesCountersOutboxAndModeAndRestartsSequences() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 10, 10);
            redis.reserve(sku, ScriptFixture.order(), 3, 1, true);
            redis.setMode(sku, "FROZEN", 0);

            Reply reply = redis.load(sku, 2, "NORMAL", 0, new long[] {5, 1, 2, 8}, new long[] {6, 0, 0, 0});

            assertThat(reply.values()).containsExactly("LOADED");
            assertThat(redis.snapshot(sku).values()).containsExactly("OK", 2L, "NORMAL", 2L, 0L,
                    5L, 1L, 2L, 8L, 0L,
                    6L, 0L, 0L, 0L, 0L);
        }

        @Test
        void clearsTheOutboxTheEpochBeforeLeft() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 10);
            redis.reserve(sku, ScriptFixture.order(), 1, 0, false);
            redis.stock(sku, "RESTOCK", "DELTA", 4, "", "", EPOCH, 100);
            assertThat(redis.outboxLength(sku)).isEqualTo(2);

            redis.loadAt(sku, 2, 13);

            assertThat(redis.outboxLength(sku)).isZero();
            assertThat(redis.server.command("EXISTS", Keys.outbox(sku))).isEqualTo(":0");
        }

        @Test
        void dropsBucketsTheNewLoadDoesNotHave() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 1, 2, 3, 4);

            redis.loadAt(sku, 2, 5, 6);

            assertThat(redis.rawField(sku, 2, 'a')).isNull();
            assertThat(redis.rawField(sku, 3, 'q')).isNull();
            assertThat(redis.server.command("HLEN", Keys.buckets(sku))).isEqualTo(":10");
        }

        @Test
        void leavesLineRecordsForTheEpochCheckToFence() {
            SkuId sku = ScriptFixture.sku();
            OrderId order = ScriptFixture.order();
            redis.load(sku, 10);
            redis.reserve(sku, order, 1, 0, false);
            String record = redis.line(sku, order);

            redis.loadAt(sku, 2, 10);

            assertThat(redis.line(sku, order)).isEqualTo(record);
            assertThat(redis.reserve(sku, order, 1, 0, false, 2).status()).isEqualTo("FOREIGN");
        }
    }

    @Nested
    class ModeAndSnapshot {
        @Test
        void setsTheModeAndReadsEverythingAtOnce() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 4, 6);
            redis.reserve(sku, ScriptFixture.order(), 1, 1, false);

            Reply previous = redis.setMode(sku, "FROZEN", 0);
            Reply snapshot = redis.snapshot(sku);

            assertThat(previous.values()).containsExactly("OK", "NORMAL");
            assertThat(snapshot.values()).containsExactly("OK", 1L, "FROZEN", 2L, 1L,
                    4L, 0L, 0L, 0L, 0L,
                    5L, 1L, 0L, -1L, 1L);
            SkuId unknown = ScriptFixture.sku();
            assertThat(redis.setMode(unknown, "FROZEN", 0).status()).isEqualTo("NOT_LOADED");
            assertThat(redis.snapshot(unknown).status()).isEqualTo("NOT_LOADED");
        }

        @Test
        void aCallerAtAnotherEpochIsStaleAndTheModeStays() {
            SkuId sku = ScriptFixture.sku();
            redis.loadAt(sku, 2, 5);

            assertThat(redis.setMode(sku, "FROZEN", 0, 1).values()).containsExactly("STALE", 2L);
            assertThat(redis.setMode(sku, "THROTTLED", 3, 3).values()).containsExactly("STALE", 2L);

            assertThat(redis.meta(sku, "mode")).isEqualTo("NORMAL");
            assertThat(redis.meta(sku, "rate")).isEqualTo("0");
            assertThat(redis.reserve(sku, ScriptFixture.order(), 1, 0, false, 2).status()).isEqualTo("OK");
        }

        @Test
        void aNewRateStartsWithAFullSecondOfTokens() {
            SkuId sku = ScriptFixture.sku();
            redis.load(sku, 100);
            redis.setMode(sku, "THROTTLED", 1);
            assertThat(redis.reserveAt(sku, ScriptFixture.order(), 1, 10_000).status()).isEqualTo("OK");
            assertThat(redis.reserveAt(sku, ScriptFixture.order(), 1, 10_000).status()).isEqualTo("THROTTLED");

            assertThat(redis.setMode(sku, "THROTTLED", 3).values()).containsExactly("OK", "THROTTLED");

            assertThat(redis.meta(sku, "ts")).isNull();
            for (int i = 0; i < 3; i++) {
                assertThat(redis.reserveAt(sku, ScriptFixture.order(), 1, 10_000).status()).isEqualTo("OK");
            }
            assertThat(redis.reserveAt(sku, ScriptFixture.order(), 1, 10_000).status()).isEqualTo("THROTTLED");
        }
    }
}
