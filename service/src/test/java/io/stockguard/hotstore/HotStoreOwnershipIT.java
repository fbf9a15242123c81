package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.TwoLineOrder;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The hypotheses of the hot-store ownership audit, each reproduced against real servers (or shown
 * not to hold) by a test that names it. The pure ones (4, 11) are in {@code ApplyPlanOwnershipTest},
 * 8's paging in {@code ExpirySweeperTest}.
 */
class HotStoreOwnershipIT {

    /** Hypothesis 1, on every tier: an adjustment down in the middle of a sale loses no acknowledged reservation. */
    static void adjustDownMidSaleLosesNoAcknowledgedReservation(RunningService service) throws Exception {
        StockGuardClient client = service.client();
        String sku = Ids.sku("adjust-down");
        assertThat(client.putSku(sku, 1_000, 1).status()).isEqualTo(201);
        List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean adjusted = new AtomicBoolean();
        AtomicInteger adjustStatus = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(48);
        List<Future<?>> buyers = new ArrayList<>();
        for (int t = 0; t < 48; t++) {
            buyers.add(pool.submit(() -> {
                for (int soldOut = 0; soldOut < 3; ) {
                    String order = Ids.order("adj");
                    StockGuardClient.Response response = client.reserve(order, new StockGuardClient.Line(sku, 1));
                    if (response.status() == 201) {
                        acknowledged.add(order);
                        if (acknowledged.size() >= 300 && adjusted.compareAndSet(false, true)) {
                            adjustStatus.set(service.admin().adjust(sku, Map.of("set", 600, "reason",
                                    "stock count found 600")).status());
                        }
                    } else if ("INSUFFICIENT_STOCK".equals(response.code())) {
                        soldOut++;
                    }
                }
                return null;
            }));
        }
        for (Future<?> buyer : buyers) {
            buyer.get();
        }
        pool.shutdown();
        service.awaitJournalApplied(sku);

        assertThat(adjustStatus.get()).as("the adjustment to 600 is made while 300+ are sold").isEqualTo(200);
        assertThat(acknowledged).as("acknowledged: exactly the new total").hasSize(600);
        for (String order : acknowledged) {
            assertThat(service.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?",
                    String.class, order)).as("acknowledged order %s", order).isEqualTo("RESERVED");
        }
        LedgerChecks.Counters totals = LedgerChecks.totals(service.jdbc(), sku);
        assertThat(totals.total()).isEqualTo(600);
        assertThat(totals.reserved()).isEqualTo(600);
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM pending_event WHERE sku_id = ?",
                Integer.class, sku)).as("nothing acknowledged is left waiting").isZero();
    }

    @Test
    void hypothesis1AdjustDownMidSaleOnTheDatabaseTier() throws Exception {
        adjustDownMidSaleLosesNoAcknowledgedReservation(RunningService.shared(TestDatabase.Kind.POSTGRESQL));
    }

    /** The standard tier: Redis and the synchronous journal. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class Standard {

        private RedisServer redis;
        private RunningService service;
        private HotStoreChecks hot;

        @BeforeAll
        void start() {
            redis = RedisServer.start();
            service = RunningService.startRedis(redis.uri(), false);
            hot = HotStoreChecks.standalone(redis.uri());
        }

        @AfterAll
        void stop() throws Exception {
            hot.close();
            service.close();
            redis.close();
        }

        @Test
        void hypothesis1AdjustDownMidSale() throws Exception {
            double before = takeovers(service);
            adjustDownMidSaleLosesNoAcknowledgedReservation(service);
            assertThat(takeovers(service)).as("no hand-over was needed for the adjustment").isEqualTo(before);
        }

        @Test
        void hypothesis1AnAdjustmentBelowWhatIsHeldIsRefusedWithTheFigures() {
            StockGuardClient client = service.client();
            String sku = Ids.sku("adjust-below");
            client.putSku(sku, 10, 2);
            for (int i = 0; i < 8; i++) {
                assertThat(client.reserve(Ids.order("below"), new StockGuardClient.Line(sku, 1)).status())
                        .isEqualTo(201);
            }

            StockGuardClient.Response refused = service.admin().adjust(sku, Map.of("set", 5, "reason", "recount"));

            assertThat(refused.status()).isEqualTo(409);
            assertThat(refused.code()).isEqualTo("INSUFFICIENT_STOCK");
            assertThat(refused.number("available")).isEqualTo(2);
            assertThat(client.sku(sku).number("total")).isEqualTo(10);
            assertThat(client.sku(sku).number("reserved")).isEqualTo(8);
        }

        @Test
        void hypothesis5PreheatLeavesSkusTheHotStoreOwnsAndTheirSalesAlone() {
            StockGuardClient client = service.client();
            String sku = Ids.sku("preheat-busy");
            client.putSku(sku, 10_000, 4);
            assertThat(client.reserve(Ids.order("p"), new StockGuardClient.Line(sku, 1)).status()).isEqualTo(201);
            String epoch = hot.redis().hget("sg:{" + sku + "}:m", "epoch");
            double takeoversBefore = takeovers(service);

            service.admin().send("POST", "/api/v1/admin/preheat", null);
            for (int i = 0; i < 50; i++) {
                assertThat(client.reserve(Ids.order("p"), new StockGuardClient.Line(sku, 1)).status()).isEqualTo(201);
            }
            service.awaitPreheatDone();

            assertThat(hot.redis().hget("sg:{" + sku + "}:m", "epoch")).as("the epoch it was loaded under").isEqualTo(
                    epoch);
            assertThat(takeovers(service)).isEqualTo(takeoversBefore);
        }

        @Test
        void hypothesis6RestocksRacingHandOversAreCountedOnceEach() throws Exception {
            StockGuardClient client = service.client();
            String sku = Ids.sku("restock-race");
            client.putSku(sku, 100, 2);
            AtomicInteger restocked = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                workers.add(pool.submit(() -> {
                    while (!stop.get()) {
                        StockGuardClient.Response response = client.restock(sku, 3);
                        if (response.status() == 200) {
                            restocked.addAndGet(3);
                        }
                    }
                    return null;
                }));
            }
            // Meanwhile the hot store loses the SKU again and again: every loss is a hand-over and a
            // load, racing the restocks.
            for (int i = 0; i < 15; i++) {
                hot.redis().del("sg:{" + sku + "}:m", "sg:{" + sku + "}:b", "sg:{" + sku + "}:x");
                client.reserve(Ids.order("nudge"), new StockGuardClient.Line(sku, 1));
            }
            stop.set(true);
            for (Future<?> worker : workers) {
                worker.get();
            }
            pool.shutdown();

            service.awaitJournalApplied(sku);
            assertThat(LedgerChecks.totals(service.jdbc(), sku).total()).as("100 + every acknowledged restock, once")
                    .isEqualTo(100 + restocked.get());
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
            // The last hand-over is loaded back by the first request after its reload-after.
            awaitHotStoreMatchesDatabase(sku);
        }

        /**
         * A restock made in Redis whose request went away before its journal (the journal failed, or
         * Redis did as the replica took over) leaves its request record and its outbox entries. The
         * SKU is then handed to the database before the sweeper takes the entries, and loaded back
         * under a new epoch, which empties the outbox. The request record outlived the load: the
         * client's retry heard "200, replayed" and the restock was never applied anywhere.
         */
        @Test
        void aRestockLostWithItsEpochIsMadeByItsRetryNotReplayed() {
            StockGuardClient client = service.client();
            String sku = warmSku("restock-lost");
            String request = Ids.order("restock");
            long epoch = hotEpoch(sku);
            try (RedisGateway gateway = new RedisGateway(ScriptFixture.properties(redis.uri()),
                    io.github.resilience4j.circuitbreaker.CircuitBreaker.ofDefaults("test"))) {
                io.stockguard.stock.SkuId id = io.stockguard.stock.SkuId.of(sku);
                String fingerprint = new io.stockguard.reservation.StockCommand.Restock(id, 5, request,
                        io.stockguard.platform.Caller.SYSTEM).fingerprint();
                // As the request does it, up to where its journal would come.
                StockReply made = new HotLines(gateway, ScriptFixture.properties(redis.uri())).stock(id,
                        io.stockguard.journal.StockOp.RESTOCK, false, 5, request, fingerprint, java.time.Instant.now(),
                        io.stockguard.platform.Caller.SYSTEM, epoch, 1);
                assertThat(made).isInstanceOf(StockReply.Made.class);
            }
            service.bean(HandOver.class).takeOver(io.stockguard.stock.SkuId.of(sku), epoch,
                    "test: Redis has fewer replicas than asked for");
            awaitHotStoreMatchesDatabase(sku);
            assertThat(hotEpoch(sku)).as("loaded back under a new epoch").isGreaterThan(epoch);

            StockGuardClient.Response retry = client.send("POST", "/api/v1/skus/" + sku + "/restock",
                    Map.of("qty", 5, "requestId", request));

            assertThat(retry.status()).as("%s", retry.body()).isEqualTo(200);
            service.awaitJournalApplied(sku);
            assertThat(LedgerChecks.totals(service.jdbc(), sku).total()).as("10 + the restock, once").isEqualTo(15);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
            assertThat(client.send("POST", "/api/v1/skus/" + sku + "/restock", Map.of("qty", 5, "requestId", request))
                    .status()).as("a second retry is a replay").isEqualTo(200);
            service.awaitJournalApplied(sku);
            assertThat(LedgerChecks.totals(service.jdbc(), sku).total()).isEqualTo(15);
            awaitHotStoreMatchesDatabase(sku);
        }

        @Test
        void hypothesis7ACancelThatMeetsAReservationStillOpeningLeavesADatabaseTombstone() {
            StockGuardClient client = service.client();
            String sku = Ids.sku("opening");
            client.putSku(sku, 10, 1);
            client.reserve(Ids.order("warm"), new StockGuardClient.Line(sku, 1));
            String order = Ids.order("opening");
            // A reservation opened its record and has not reserved its line yet.
            long now = System.currentTimeMillis();
            hot.writeOrderRecord(order, Map.of("st", "OPENING", "fp", "fp", "ln", sku + "|1", "c",
                    Long.toString(now), "e", Long.toString(now + 60_000), "t", "", "u", Long.toString(now)));

            assertThat(client.cancel(order).status()).isEqualTo(200);
            service.awaitJournalApplied(sku);

            assertThat(service.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                    order)).as("the tombstone is in the database too (I7)").isEqualTo("CANCELLED");
            hot.redis().del("sg:{o:" + order + "}", "sg:{" + sku + "}:o:" + order);
            assertThat(client.reserve(order, new StockGuardClient.Line(sku, 1)).code())
                    .as("a late reserve, even after the hot store lost its records").isEqualTo("ORDER_CANCELLED");
        }

        /**
         * An attempt that died left the order's record opening, with no line; the order was then
         * made on another path (the database path, while it owned the SKU). A cancel settles the
         * order the database has, instead of taking the dead attempt's record for the truth and
         * answering "cancelled, no lines" while the sale stands (seen in the chaos suite).
         */
        @Test
        void aCancelThatMeetsTheRecordOfADeadAttemptSettlesTheOrderTheDatabaseHas() {
            StockGuardClient client = service.client();
            String order = Ids.order("made-elsewhere");
            String sku = twoHeldOfTen("dead-attempt", order);
            assertThat(client.confirm(order).status()).isEqualTo(200);
            service.awaitJournalApplied(sku);
            leftOpeningByAnAttempt(order, sku, 2, Duration.ofMinutes(2));

            StockGuardClient.Response cancelled = client.cancel(order);

            assertThat(cancelled.status()).isEqualTo(200);
            assertThat(cancelled.text("state")).isEqualTo("CANCELLED");
            assertThat(cancelled.body().get("lines")).as("the sale returned: %s", cancelled.body()).hasSize(1);
            service.awaitJournalApplied(sku);
            assertThat(service.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                    order)).isEqualTo("CANCELLED");
            assertThat(LedgerChecks.totals(service.jdbc(), sku).sold()).isZero();
            hot.awaitDrained(sku);
            hot.awaitMatchesDatabase(service.jdbc(), sku);
        }

        /**
         * Seen in the chaos suite (standard tier, two instances, one cut off from Redis): a reserve
         * opened the order's record in Redis, lost Redis, and was made on the database path. Once
         * the SKU was back in Redis, every confirm of the order heard "its reservation is still in
         * progress" (503) to the end of the run, though the database had the order all along.
         */
        @Test
        void aConfirmThatMeetsTheRecordOfAnAttemptMadeElsewhereSettlesTheOrderTheDatabaseHas() {
            StockGuardClient client = service.client();
            String order = Ids.order("confirm-elsewhere");
            String sku = twoHeldOfTen("opened-elsewhere", order);
            leftOpeningByAnAttempt(order, sku, 2, Duration.ofSeconds(5));

            StockGuardClient.Response confirmed = client.confirm(order);

            assertThat(confirmed.status()).as("%s", confirmed.body()).isEqualTo(200);
            assertThat(confirmed.text("state")).isEqualTo("CONFIRMED");
            service.awaitJournalApplied(sku);
            assertThat(state(order)).isEqualTo("CONFIRMED");
            assertThat(LedgerChecks.totals(service.jdbc(), sku).sold()).isEqualTo(2);
            hot.awaitDrained(sku);
            hot.awaitMatchesDatabase(service.jdbc(), sku);
        }

        /** The same record met by an extension: the database's order is extended, not "still in progress". */
        @Test
        void anExtensionThatMeetsTheRecordOfAnAttemptMadeElsewhereExtendsTheOrderTheDatabaseHas() {
            StockGuardClient client = service.client();
            String order = Ids.order("extend-elsewhere");
            String sku = twoHeldOfTen("opened-elsewhere", order);
            leftOpeningByAnAttempt(order, sku, 2, Duration.ofSeconds(5));

            StockGuardClient.Response extended = client.extend(order, 1_800);

            assertThat(extended.status()).as("%s", extended.body()).isEqualTo(200);
            assertThat(extended.body().get("extensions").asInt()).isEqualTo(1);
            service.awaitJournalApplied(sku);
            assertThat(service.jdbc().queryForObject("SELECT extensions FROM reservation WHERE order_id = ?",
                    Integer.class, order)).isEqualTo(1);
        }

        /**
         * Seen in the chaos suite (standard tier, two instances, one cut off from Redis, seed 2): an
         * order made and confirmed on the database path while Redis was out of reach; its line's
         * record was then restored from the database (CONFIRMED) and the order's record was not.
         * The client's retry of the reserve found the line and was answered "200 RESERVED,
         * replayed", and the order's record in Redis was closed as RESERVED, though the order was
         * confirmed. A line settled since is the database's to tell.
         */
        @Test
        void aRetriedReserveThatFindsItsLineConfirmedHearsTheOrderConfirmed() {
            StockGuardClient client = service.client();
            String order = Ids.order("retried-after-confirm");
            String sku = twoHeldOfTen("confirmed-line", order);
            assertThat(client.confirm(order).status()).isEqualTo(200);
            hot.redis().del(Keys.order(io.stockguard.stock.OrderId.of(order)));

            StockGuardClient.Response retried = client.reserve(order, new StockGuardClient.Line(sku, 2));

            assertThat(retried.status()).as("%s", retried.body()).isEqualTo(200);
            assertThat(retried.text("state")).isEqualTo("CONFIRMED");
            assertThat(retried.body().get("replayed").asBoolean()).isTrue();
            StockGuardClient.Response again = client.reserve(order, new StockGuardClient.Line(sku, 2));
            assertThat(again.status()).as("the record written back from the database keeps the request's "
                    + "fingerprint: a retry is a replay, not a conflict: %s", again.body()).isEqualTo(200);
            assertThat(again.text("state")).isEqualTo("CONFIRMED");
            assertThat(client.reservation(order).text("state")).isEqualTo("CONFIRMED");
            assertThat(hot.redis().hget(Keys.order(io.stockguard.stock.OrderId.of(order)), "st"))
                    .as("the order's record in Redis").isIn(null, "CONFIRMED");
            service.awaitJournalApplied(sku);
            assertThat(LedgerChecks.totals(service.jdbc(), sku).sold()).isEqualTo(2);
            hot.awaitDrained(sku);
            hot.awaitMatchesDatabase(service.jdbc(), sku);
        }

        /**
         * Seen in the suite: the same retry as above, while the journal (applied behind the answer)
         * had not yet given the database the confirm acknowledged a moment before; the order's copy
         * restored from the database said RESERVED, and so did the answer. The database's copy
         * answers only once it has the SKU's journaled changes; until then the retry is asked for.
         */
        @Test
        void aRetryRestoredFromTheDatabaseWaitsForTheJournalToGiveItTheConfirm() throws Exception {
            StockGuardClient client = service.client();
            String order = Ids.order("confirm-not-applied");
            String sku = twoHeldOfTen("confirm-not-applied", order);
            service.awaitJournalApplied(sku);
            // The applier takes the order's reservation row to apply the confirm: held here, the
            // confirm is journaled (acknowledged) but cannot reach the database.
            try (java.sql.Connection holder = service.jdbc().getDataSource().getConnection()) {
                holder.setAutoCommit(false);
                try (var lock = holder.prepareStatement("SELECT 1 FROM reservation WHERE order_id = ? FOR UPDATE")) {
                    lock.setString(1, order);
                    lock.executeQuery().close();
                }
                assertThat(client.confirm(order).status()).isEqualTo(200);
                hot.redis().del(Keys.order(io.stockguard.stock.OrderId.of(order)));

                StockGuardClient.Response early = client.reserve(order, new StockGuardClient.Line(sku, 2));

                assertThat(early.status()).as("%s", early.body()).isEqualTo(503);
                assertThat(early.code()).isEqualTo("UNAVAILABLE");
                holder.rollback();
            }
            service.awaitJournalApplied(sku);
            StockGuardClient.Response retried = client.reserve(order, new StockGuardClient.Line(sku, 2));
            assertThat(retried.status()).as("%s", retried.body()).isEqualTo(200);
            assertThat(retried.text("state")).isEqualTo("CONFIRMED");
            assertThat(retried.body().get("replayed").asBoolean()).isTrue();
            service.awaitJournalApplied(sku);
            assertThat(LedgerChecks.totals(service.jdbc(), sku).sold()).isEqualTo(2);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        }

        /** A new SKU of 10 units and {@code order} holding 2 of them (made through the hot store); returns the SKU. */
        private String twoHeldOfTen(String skuName, String order) {
            String sku = Ids.sku(skuName);
            service.client().putSku(sku, 10, 1);
            assertThat(service.client().reserve(order, new StockGuardClient.Line(sku, 2)).status()).isEqualTo(201);
            // The scenarios start from an order the database has.
            service.awaitJournalApplied(sku);
            return sku;
        }

        /**
         * What an attempt that lost Redis right after opening the order's record leaves there: the
         * record OPENING, {@code age} old, no line reserved in Redis; the order was made elsewhere.
         */
        private void leftOpeningByAnAttempt(String order, String sku, int qty, Duration age) {
            long opened = System.currentTimeMillis() - age.toMillis();
            hot.redis().del("sg:{" + sku + "}:o:" + order);
            hot.writeOrderRecord(order, Map.of("st", "OPENING", "fp", "fp", "ln", sku + "|" + qty, "lb", "",
                    "c", Long.toString(opened), "e", Long.toString(opened + 900_000), "t", "",
                    "u", Long.toString(opened)));
        }

        /**
         * Seen in the chaos suite (standard tier, Redis failing over): an expiry settled one line of
         * a two-line order, whose change reached the database and moved the order to EXPIRED; the
         * other line's change was fenced when its SKU was taken over. The order read expired and
         * that line held its 3 units for good. Handing the SKU to the database settles it.
         */
        @Test
        void aLineWhoseSettlementWasFencedAfterAnotherLineMovedTheOrderIsSettledAtTheHandOver() {
            StockGuardClient client = service.client();
            TwoLineOrder made = TwoLineOrder.reserved(service, "half-expired");
            String first = made.first();
            String second = made.second();
            String order = made.order();
            // The first line's expiry reaches the database; the second line's never does.
            List<io.stockguard.journal.EventOutcome> outcomes = made.expireFirstLine(service, true);
            assertThat(outcomes).containsExactly(io.stockguard.journal.EventOutcome.Settled.APPLIED);
            assertThat(state(order)).isEqualTo("EXPIRED");
            assertThat(LedgerChecks.totals(service.jdbc(), second).reserved()).as("the second line still holds")
                    .isEqualTo(3);

            HandOver handOver = service.bean(HandOver.class);
            for (String sku : List.of(first, second)) {
                handOver.takeOver(io.stockguard.stock.SkuId.of(sku), hotEpoch(sku), "the hot store's change was fenced");
            }

            service.awaitJournalApplied(first, second);
            LedgerChecks.Counters counters = LedgerChecks.totals(service.jdbc(), second);
            assertThat(counters.reserved()).as("the expired order's line returned its units").isZero();
            assertThat(counters.available()).isEqualTo(10);
            assertThat(service.jdbc().queryForObject("SELECT actor FROM stock_event WHERE order_id = ? AND sku_id = ? "
                    + "AND op = 'EXPIRE'", String.class, order, second)).isEqualTo("stockguard:hand-over");
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), second);
            assertThat(client.reserve(Ids.order("after"), new StockGuardClient.Line(second, 10)).status())
                    .as("all 10 units sell again").isEqualTo(201);
            awaitHotStoreMatchesDatabase(second);
            assertThat(state(order)).isEqualTo("EXPIRED");
        }

        /**
         * Seen in the demo (full tier): a two-line order expired in Redis; one line's expiry went to
         * the journal, the other's SKU was taken over first (a copy of another Redis history) and
         * its drain finished while the order was still reserved in the database, so the drain had
         * nothing to settle. The first line's expiry, applied a moment later, moved the order; the
         * line on the SKU the database had taken back held its unit for good. The applier that
         * moves the order settles that line in the same transaction.
         */
        @Test
        void aLineOnASkuAlreadyHandedBackIsSettledWhenAnotherLineMovesTheOrder() {
            StockGuardClient client = service.client();
            TwoLineOrder made = TwoLineOrder.reserved(service, "expired-late");
            String first = made.first();
            String second = made.second();
            String order = made.order();
            service.bean(HandOver.class).takeOver(io.stockguard.stock.SkuId.of(second), hotEpoch(second),
                    "a copy of another Redis history");
            assertThat(service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?", String.class, second))
                    .as("the drain finished with nothing to settle").isEqualTo("DATABASE");
            assertThat(state(order)).isEqualTo("RESERVED");

            // The first line's expiry reaches the database only now.
            List<io.stockguard.journal.EventOutcome> outcomes = made.expireFirstLine(service, false);
            assertThat(outcomes).containsExactly(io.stockguard.journal.EventOutcome.Settled.APPLIED);
            assertThat(state(order)).isEqualTo("EXPIRED");
            LedgerChecks.Counters counters = LedgerChecks.totals(service.jdbc(), second);
            assertThat(counters.reserved()).as("the line on the handed-back SKU returned its units").isZero();
            assertThat(counters.available()).isEqualTo(10);
            assertThat(service.jdbc().queryForObject("SELECT actor FROM stock_event WHERE order_id = ? AND sku_id = ? "
                    + "AND op = 'EXPIRE'", String.class, order, second)).isEqualTo("stockguard:hand-over");
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), first);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), second);
            assertThat(client.reserve(Ids.order("after"), new StockGuardClient.Line(second, 10)).status())
                    .as("all 10 units sell again").isEqualTo(201);
        }

        /**
         * Seen in the chaos suite (standard tier, two instances, wait-replicas 1, seed 1): a cancel
         * made in Redis was journaled twice in one group commit, first by a reservation that found it
         * in the gives set and journals it ahead of itself, then by its own request. The SKU had just
         * been taken over by the other instance, so the first copy was fenced; the second was counted
         * a repeat of it, "done", and the cancel was acknowledged though the database never had it.
         * Every copy of an event in a batch must hear what the first heard (the journal's fence
         * judges each copy; the applier answers repeats alike, see ApplyPlan's tests).
         */
        @Test
        void anEventHandedInTwiceInOneCommitIsAnsweredAlikeBothTimes() {
            StockGuardClient client = service.client();
            String sku = Ids.sku("twice-fenced");
            client.putSku(sku, 10, 1);
            String order = Ids.order("cancel-twice");
            assertThat(client.reserve(order, new StockGuardClient.Line(sku, 2)).status()).isEqualTo(201);
            service.awaitJournalApplied(sku);
            long epoch = hotEpoch(sku);
            // Another instance takes the SKU over; this one's hot store has not heard yet.
            service.bean(io.stockguard.reservation.OwnershipStore.class).takeOver(io.stockguard.stock.SkuId.of(sku),
                    epoch, java.time.Instant.now());
            io.stockguard.journal.StockEvent cancel = io.stockguard.journal.StockEvents.cancelReserved(
                    io.stockguard.stock.OrderId.of(order), io.stockguard.stock.SkuId.of(sku), 0, 2,
                    new io.stockguard.journal.StockEvents.Context(null, "test", java.time.Instant.now()))
                    .stamped(epoch, 1_000);

            // Handed to the journal as the hot store hands it: its fence answers before anything is acknowledged.
            List<io.stockguard.journal.EventOutcome> outcomes = service.bean(io.stockguard.journal.DurableJournal.class)
                    .record(List.of(cancel, cancel));
            service.awaitJournalApplied(sku);

            assertThat(outcomes).hasSize(2).allSatisfy(outcome -> assertThat(outcome)
                    .isInstanceOfSatisfying(io.stockguard.journal.EventOutcome.Rejected.class, rejected ->
                            assertThat(rejected.reason()).isEqualTo(io.stockguard.journal.EventOutcome.Reason.FENCED)));
            assertThat(state(order)).as("the cancel was not made").isEqualTo("RESERVED");
        }

        /**
         * Seen in the chaos suite (standard tier, one instance, wait-replicas 0, seed 1, fast
         * failover): an order confirmed in the writes a failover lost is replayed by its client; the
         * database refuses the new reservation as made already and the caller hears the confirmed
         * order. A cancel of it then met the line the refused replay left undone, and answered 503
         * on every retry.
         */
        @Test
        void anOrderTheHotStoreForgotCanBeCancelledAfterItsReplay() {
            StockGuardClient client = service.client();
            String sku = Ids.sku("forgotten");
            client.putSku(sku, 10, 1);
            String order = Ids.order("forgotten");
            assertThat(client.reserve(order, new StockGuardClient.Line(sku, 2)).status()).isEqualTo(201);
            assertThat(client.confirm(order).status()).isEqualTo(200);
            service.awaitJournalApplied(sku);
            // The hot store loses the order's records; its counters still count the sale.
            hot.redis().del(Keys.line(io.stockguard.stock.SkuId.of(sku), io.stockguard.stock.OrderId.of(order)),
                    Keys.order(io.stockguard.stock.OrderId.of(order)));

            StockGuardClient.Response replay = client.reserve(order, new StockGuardClient.Line(sku, 2));
            assertThat(replay.status()).as("the replay hears the order the database has").isEqualTo(200);
            assertThat(replay.body().get("state").asText()).isEqualTo("CONFIRMED");

            assertThat(client.cancel(order).status()).as("the confirmed order can be cancelled").isEqualTo(200);
            service.awaitJournalApplied(sku);
            assertThat(state(order)).isEqualTo("CANCELLED");
            assertThat(LedgerChecks.totals(service.jdbc(), sku).available()).as("its units are back").isEqualTo(10);
            hot.assertMatchesDatabase(service.jdbc(), sku);
        }

        /**
         * Seen in the chaos suite (standard tier, two instances, wait-replicas 1, seed 1, fast
         * failover): a confirm made in Redis was refused by the database (the other instance had
         * taken the SKU over) and made on the database path instead, which left the order's record
         * CONFIRMING under the old epoch. After the SKU came back to Redis, every cancel heard "a
         * confirm is under way" until the record went stale by age (30 s). A record whose lines an
         * older epoch recorded is the database's to say, at once.
         */
        @Test
        void aConfirmLeftHalfWayUnderAnOlderEpochDoesNotHoldACancelBack() {
            StockGuardClient client = service.client();
            String sku = Ids.sku("confirming");
            client.putSku(sku, 10, 1);
            String order = Ids.order("confirming");
            assertThat(client.reserve(order, new StockGuardClient.Line(sku, 2)).status()).isEqualTo(201);
            service.awaitJournalApplied(sku);
            service.bean(HandOver.class).takeOver(io.stockguard.stock.SkuId.of(sku), hotEpoch(sku),
                    "the database refused a confirm");
            assertThat(client.confirm(order).status()).as("confirmed by the database").isEqualTo(200);
            // What the refused confirm left in Redis: the record half-way, under the epoch it had.
            hot.redis().hset(Keys.order(io.stockguard.stock.OrderId.of(order)), Map.of("st", "CONFIRMING", "u",
                    Long.toString(System.currentTimeMillis())));
            awaitHotStoreMatchesDatabase(sku);

            StockGuardClient.Response cancel = client.cancel(order);

            assertThat(cancel.status()).as("%s", cancel.body()).isEqualTo(200);
            service.awaitJournalApplied(sku);
            assertThat(state(order)).isEqualTo("CANCELLED");
            assertThat(LedgerChecks.totals(service.jdbc(), sku).sold()).as("the sale is returned").isZero();
        }

        /**
         * Seen in the chaos suite (full tier): the sweepers waited out Redis timeouts on both threads
         * of the shared scheduler, the view fell seconds behind, and an instance sold on an epoch
         * handed over meanwhile. The view follows changes on a thread of its own.
         */
        @Test
        void theOwnershipViewFollowsAHandOverWhileTheSharedSchedulerIsBusy() throws Exception {
            StockGuardClient client = service.client();
            String sku = Ids.sku("busy-scheduler");
            client.putSku(sku, 10, 1);
            assertThat(client.reserve(Ids.order("load"), new StockGuardClient.Line(sku, 1)).status()).isEqualTo(201);
            io.stockguard.stock.SkuId id = io.stockguard.stock.SkuId.of(sku);
            OwnershipView view = service.bean(OwnershipView.class);
            assertThat(view.get(id)).containsInstanceOf(io.stockguard.reservation.Ownership.Hot.class);
            org.springframework.scheduling.TaskScheduler shared = service.bean(
                    org.springframework.scheduling.TaskScheduler.class);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch busy = new java.util.concurrent.CountDownLatch(2);
            try {
                for (int thread = 0; thread < 2; thread++) {
                    shared.schedule(() -> {
                        busy.countDown();
                        try {
                            release.await(20, java.util.concurrent.TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }, java.time.Instant.now());
                }
                assertThat(busy.await(10, java.util.concurrent.TimeUnit.SECONDS)).as("both threads held").isTrue();

                // Another instance takes the SKU over: only the view's refresh can tell this one.
                service.bean(io.stockguard.reservation.OwnershipStore.class).takeOver(id, hotEpoch(sku),
                        java.time.Instant.now());

                await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(50))
                        .until(() -> !(view.get(id).orElseThrow() instanceof io.stockguard.reservation.Ownership.Hot));
            } finally {
                release.countDown();
            }
        }

        /**
         * Sends a reservation (refused or not) until the hot store matches the database: a SKU taken
         * over goes back to the hot store on a request after takeover.reload-after.
         */
        private void awaitHotStoreMatchesDatabase(String sku) {
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).until(() -> {
                service.client().reserve(Ids.order("poke"), new StockGuardClient.Line(sku, 1));
                return hot.matchesDatabase(service.jdbc(), sku);
            });
        }

        private String state(String order) {
            return service.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                    order);
        }

        private long hotEpoch(String sku) {
            return service.jdbc().queryForObject("SELECT hot_epoch FROM sku WHERE sku_id = ?", Long.class, sku);
        }

        @Test
        void hypothesis9ReservationsUndoneWhileTheSweeperRunsKeepBothStoresInStep() throws Exception {
            // Two-line orders whose second line is sold out are undone; the sweeper runs every second
            // beside them. Neither may apply what the other undid.
            StockGuardClient client = service.client();
            String plenty = Ids.sku("undo-a");
            String scarce = Ids.sku("undo-b");
            client.putSku(plenty, 1_000, 2);
            client.putSku(scarce, 5, 1);
            ExecutorService pool = Executors.newFixedThreadPool(16);
            List<Future<?>> buyers = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                buyers.add(pool.submit(() -> {
                    for (int i = 0; i < 20; i++) {
                        client.reserve(Ids.order("undo"), new StockGuardClient.Line(plenty, 1),
                                new StockGuardClient.Line(scarce, 1));
                    }
                    return null;
                }));
            }
            for (Future<?> buyer : buyers) {
                buyer.get();
            }
            pool.shutdown();
            hot.awaitDrained(plenty);

            service.awaitJournalApplied(plenty, scarce);
            assertThat(LedgerChecks.totals(service.jdbc(), plenty).reserved()).as("only the orders that got both")
                    .isEqualTo(5);
            hot.awaitMatchesDatabase(service.jdbc(), plenty);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), plenty);
        }

        @Test
        void hypothesis10ALineReservedByAnAttemptThatDiedIsReturnedWhenItsRetryIsRefused() {
            StockGuardClient client = service.client();
            String plenty = Ids.sku("resume-a");
            String scarce = Ids.sku("resume-b");
            client.putSku(plenty, 10, 1);
            client.putSku(scarce, 1, 1);
            client.reserve(Ids.order("warm"), new StockGuardClient.Line(plenty, 1));
            client.cancel(Ids.order("warm-none"));
            String order = Ids.order("resume");
            List<io.stockguard.stock.StockLine> asked = List.of(
                    new io.stockguard.stock.StockLine(io.stockguard.stock.SkuId.of(plenty), 2),
                    new io.stockguard.stock.StockLine(io.stockguard.stock.SkuId.of(scarce), 1));
            // What an attempt that died leaves: its order record opening (long ago), its first line
            // reserved in Redis (not journaled), nothing of its second line.
            diedAfterItsFirstLine(order, plenty, asked);
            // Meanwhile the scarce SKU sold out.
            assertThat(client.reserve(Ids.order("rival"), new StockGuardClient.Line(scarce, 1)).status())
                    .isEqualTo(201);

            StockGuardClient.Response retried = client.reserve(order, new StockGuardClient.Line(plenty, 2),
                    new StockGuardClient.Line(scarce, 1));
            StockGuardClient.Response otherLines = client.reserve(order, new StockGuardClient.Line(plenty, 5));

            assertThat(retried.code()).isEqualTo("INSUFFICIENT_STOCK");
            assertThat(otherLines.status()).as("the order id does not come back for other lines: %s",
                    otherLines.body()).isEqualTo(409);
            service.awaitJournalApplied(plenty, scarce);
            assertThat(LedgerChecks.totals(service.jdbc(), plenty).reserved())
                    .as("the line the dead attempt reserved is given back, not left holding stock").isEqualTo(1);
            hot.awaitDrained(plenty);
            hot.awaitMatchesDatabase(service.jdbc(), plenty);
        }

        private void diedAfterItsFirstLine(String order, String sku, List<io.stockguard.stock.StockLine> asked) {
            // Its change is fresh, so the outbox sweeper leaves it to the retry that follows at once.
            diedHalfWay(order, asked, List.of(sku), System.currentTimeMillis(), false);
        }

        private void diedHalfWay(String order, List<io.stockguard.stock.StockLine> asked, List<String> reservedSkus,
                long changedAt, boolean gaveUp) {
            DeadRequests.leftHalfWay(hot, redis.uri(), order, asked, reservedSkus, changedAt, gaveUp);
        }

        /** A SKU of 10 units in one bucket, with one reserved, so the hot store owns it. */
        private String warmSku(String name) {
            String sku = Ids.sku(name);
            service.client().putSku(sku, 10, 1);
            service.client().reserve(Ids.order("warm"), new StockGuardClient.Line(sku, 1));
            return sku;
        }

        private static io.stockguard.stock.StockLine line(String sku, int qty) {
            return new io.stockguard.stock.StockLine(io.stockguard.stock.SkuId.of(sku), qty);
        }

        /**
         * A request that died after the first of two lines (or a failover that lost the second
         * line's change) once had the outbox sweeper journal the first line on its own: the
         * database held an order with part of what its customer asked for. Now the order is settled
         * as a whole: the lone line is undone, and the retry reserves both.
         */
        @Test
        void anOrderLeftWithOneLineOfTwoIsUndoneNotJournaledInPart() {
            StockGuardClient client = service.client();
            String first = warmSku("halfway-a");
            String second = warmSku("halfway-b");
            String order = Ids.order("halfway");
            List<io.stockguard.stock.StockLine> asked = List.of(line(first, 2), line(second, 3));

            diedHalfWay(order, asked, List.of(first), System.currentTimeMillis() - 120_000, false);

            await().atMost(Duration.ofSeconds(20)).until(() -> hot.redis().exists("sg:{o:" + order + "}") == 0);
            hot.awaitDrained(first);
            assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM reservation WHERE order_id = ?",
                    Integer.class, order)).as("no part of the order reached the database").isZero();
            assertThat(LedgerChecks.totals(service.jdbc(), first).reserved()).as("only the warm-up's").isEqualTo(1);
            hot.assertMatchesDatabase(service.jdbc(), first);

            StockGuardClient.Response retried = client.reserve(order, new StockGuardClient.Line(first, 2),
                    new StockGuardClient.Line(second, 3));
            assertThat(retried.status()).as("%s", retried.body()).isEqualTo(201);
            service.awaitJournalApplied(first, second);
            assertThat(service.jdbc().queryForList("SELECT sku_id FROM reservation_line WHERE order_id = ?",
                    String.class, order)).containsExactlyInAnyOrder(first, second);
            hot.awaitMatchesDatabase(service.jdbc(), first);
            hot.awaitMatchesDatabase(service.jdbc(), second);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), first);
        }

        /**
         * A request that reserved every line and then gave up (the replicas did not confirm, or
         * the journal failed while committing) leaves the order whole in the hot store: the sweeper
         * journals its lines together, and the retry is answered as the replay it is.
         */
        @Test
        void anOrderGivenUpAfterEveryLineIsJournaledWhole() {
            StockGuardClient client = service.client();
            String first = warmSku("whole-a");
            String second = warmSku("whole-b");
            String order = Ids.order("whole");
            List<io.stockguard.stock.StockLine> asked = List.of(line(first, 2), line(second, 3));

            diedHalfWay(order, asked, List.of(first, second), System.currentTimeMillis() - 120_000, true);

            hot.awaitDrained(first);
            hot.awaitDrained(second);
            service.awaitJournalApplied(first, second);
            assertThat(service.jdbc().queryForList("SELECT sku_id FROM reservation_line WHERE order_id = ?",
                    String.class, order)).as("both lines, journaled together").containsExactlyInAnyOrder(first, second);
            assertThat(state(order)).isEqualTo("RESERVED");
            hot.assertMatchesDatabase(service.jdbc(), first);
            hot.assertMatchesDatabase(service.jdbc(), second);

            StockGuardClient.Response retried = client.reserve(order, new StockGuardClient.Line(first, 2),
                    new StockGuardClient.Line(second, 3));
            assertThat(retried.status()).as("%s", retried.body()).isEqualTo(200);
            service.awaitJournalApplied(first, second);
            assertThat(LedgerChecks.totals(service.jdbc(), first).reserved()).isEqualTo(3);
            assertThat(LedgerChecks.totals(service.jdbc(), second).reserved()).isEqualTo(4);
        }

        /**
         * A cancel that returned one line of two and then lost its way (the replicas did not
         * confirm it; a failover may yet lose the other line's change) is finished by its retry,
         * which journals both lines together. The sweeper once journaled the first line's cancel on
         * its own: the database held a cancelled order whose other line still held stock, and
         * nothing ever returned it when a failover then lost the second line's change.
         */
        @Test
        void aCancelUnderWayIsJournaledWholeByItsRetryNotLineByLineByTheSweeper() {
            StockGuardClient client = service.client();
            String first = Ids.sku("settling-a");
            String second = Ids.sku("settling-b");
            client.putSku(first, 10, 1);
            client.putSku(second, 10, 1);
            String order = Ids.order("settling");
            assertThat(client.reserve(order, new StockGuardClient.Line(first, 2), new StockGuardClient.Line(second, 3))
                    .status()).isEqualTo(201);
            hot.awaitDrained(first);

            // What the cancel left: the order record cancelling (touched just now), the first line
            // cancelled in Redis with its change (made long enough ago for the sweeper) in the outbox.
            hot.redis().hset("sg:{o:" + order + "}", Map.of("st", "CANCELLING", "u",
                    Long.toString(System.currentTimeMillis())));
            String epoch = hot.redis().hget("sg:{" + first + "}:m", "epoch");
            try (RedisGateway gateway = new RedisGateway(ScriptFixture.properties(redis.uri()),
                    io.github.resilience4j.circuitbreaker.CircuitBreaker.ofDefaults("test"))) {
                Reply cancelled = new Reply(gateway.run(Script.RELEASE, Keys.reserveKeys(
                        io.stockguard.stock.SkuId.of(first), io.stockguard.stock.OrderId.of(order)), List.of(order,
                        "CANCEL", Long.toString(System.currentTimeMillis() - 120_000), "", "test", "3600",
                        io.stockguard.journal.EventIds.next(), epoch)));
                assertThat(cancelled.status()).isEqualTo("OK");
            }

            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() ->
                    "RESERVED".equals(state(order)) && hot.redis().xlen("sg:{" + first + "}:x") == 1);

            assertThat(client.cancel(order).status()).isEqualTo(200);
            service.awaitJournalApplied(first, second);
            assertThat(state(order)).isEqualTo("CANCELLED");
            assertThat(LedgerChecks.totals(service.jdbc(), first).reserved()).isZero();
            assertThat(LedgerChecks.totals(service.jdbc(), second).reserved()).isZero();
            hot.awaitDrained(first);
            hot.awaitMatchesDatabase(service.jdbc(), first);
            hot.awaitMatchesDatabase(service.jdbc(), second);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), first);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), second);
        }

        /**
         * A confirm, cancel or expiry that moved the first of two lines in Redis and then went away
         * (its caller died, or the other line's SKU changed hands under it) once had the outbox
         * sweeper journal the first line's change on its own: the database moved the whole order
         * and the second line held its units in both stores for good, with nothing left to ask for
         * them. The sweeper now finishes the settlement, as a retry would, and journals both lines.
         */
        @ParameterizedTest
        @CsvSource({"EXPIRING, EXPIRE, EXPIRED", "CANCELLING, CANCEL, CANCELLED"})
        void aSettlementLeftHalfWayIsFinishedByTheSweeperNotJournaledLineByLine(String settling, String how,
                String settled) {
            String first = Ids.sku("left-a");
            String second = Ids.sku("left-b");
            String order = twoLineOrder(service, hot, first, second);

            settledFirstLineThenLeft(hot, redis.uri(), order, first, settling, how, true);

            hot.awaitDrained(first);
            service.awaitJournalApplied(first, second);
            assertThat(state(order)).isEqualTo(settled);
            assertThat(LedgerChecks.totals(service.jdbc(), first).reserved()).isZero();
            assertThat(LedgerChecks.totals(service.jdbc(), second).reserved())
                    .as("the line that had not moved is settled with the order, not left holding").isZero();
            assertThat(service.jdbc().queryForList("SELECT sku_id FROM stock_event WHERE order_id = ? AND op = ?",
                    String.class, order, how)).containsExactlyInAnyOrder(first, second);
            assertThat(hot.redis().hget("sg:{o:" + order + "}", "st")).isEqualTo(settled);
            hot.awaitMatchesDatabase(service.jdbc(), first);
            hot.awaitMatchesDatabase(service.jdbc(), second);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), first);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), second);
        }

        /**
         * Seen in the demo (full tier, two instances, wait-replicas 1, after a fast failover): an
         * expiry returned one line of a two-line order in Redis; the other line's SKU answered "a
         * copy of another Redis history", was taken over, and was loaded again with the line held.
         * The first line's expiry, swept on its own, then moved the order to EXPIRED and 3 units
         * were held for it for good. The sweeper finishes the expiry across the new epoch.
         */
        @Test
        void anExpiryLeftHalfWayIsFinishedAcrossAHandOverOfItsOtherSku() {
            String first = Ids.sku("left-late");
            String second = Ids.sku("left-small");
            String order = twoLineOrder(service, hot, first, second);
            // The expiry under way (its record touched just now, so nobody else finishes it yet).
            settledFirstLineThenLeft(hot, redis.uri(), order, first, "EXPIRING", "EXPIRE", false);
            long before = hotEpoch(second);
            HandOver handOver = service.bean(HandOver.class);
            handOver.takeOver(io.stockguard.stock.SkuId.of(second), before, "a copy of another Redis history");
            handOver.ensureHotNow(io.stockguard.stock.SkuId.of(second));
            assertThat(hotEpoch(second)).as("loaded again under a new epoch").isGreaterThan(before);
            service.awaitJournalApplied(second);
            assertThat(LedgerChecks.totals(service.jdbc(), second).reserved()).as("the line is held").isEqualTo(3);

            // Then the expiry's caller goes away, its hold over. The expiry sweeper, which would finish
            // it too, is stopped: the outbox sweeper is the one under test.
            io.stockguard.platform.PeriodicWork expirySweeper = service.beans(io.stockguard.platform.PeriodicWork.class)
                    .stream()
                    .filter(work -> work.getClass().getSimpleName().equals("ExpirySweeper")).findFirst().orElseThrow();
            expirySweeper.stop();
            try {
                long ended = System.currentTimeMillis() - 60_000;
                service.jdbc().update("UPDATE reservation SET expires_at = ? WHERE order_id = ?",
                        java.sql.Timestamp.from(java.time.Instant.ofEpochMilli(ended)), order);
                hot.redis().hset("sg:{o:" + order + "}", Map.of("e", Long.toString(ended),
                        "u", Long.toString(System.currentTimeMillis() - 120_000)));

                hot.awaitDrained(first);
            } finally {
                expirySweeper.start();
            }
            service.awaitJournalApplied(first, second);
            assertThat(state(order)).isEqualTo("EXPIRED");
            assertThat(LedgerChecks.totals(service.jdbc(), second).reserved())
                    .as("the line loaded again is settled with the order").isZero();
            assertThat(service.jdbc().queryForObject("SELECT actor FROM stock_event WHERE order_id = ? AND sku_id = ? "
                    + "AND op = 'EXPIRE'", String.class, order, second)).as("finished by the outbox sweeper")
                    .contains("outbox-sweeper");
            assertThat(LedgerChecks.totals(service.jdbc(), first).reserved()).isZero();
            hot.awaitMatchesDatabase(service.jdbc(), first);
            hot.awaitMatchesDatabase(service.jdbc(), second);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), first);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), second);
            assertThat(service.client().reserve(Ids.order("after"), new StockGuardClient.Line(second, 10)).status())
                    .as("all 10 units sell again").isEqualTo(201);
        }

        @Test
        void hypothesis3ASkuFirstUsedSecondsAfterItWasCreatedIsServedFromTheHotStore() {
            StockGuardClient client = service.client();
            String sku = Ids.sku("late");
            client.putSku(sku, 10, 2);
            // The scenario itself: first used a while after it was created (not a wait for anything).
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofSeconds(2).toNanos());

            String order = Ids.order("late");
            assertThat(client.reserve(order, new StockGuardClient.Line(sku, 1)).status()).isEqualTo(201);
            assertThat(hot.redis().exists("sg:{o:" + order + "}")).as("served by the hot store").isEqualTo(1);
        }
    }

    /** The full tier: Redis and Kafka. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class Full {

        private RedisServer redis;
        private KafkaCluster kafka;
        private RunningService service;
        private HotStoreChecks hot;

        @BeforeAll
        void start() {
            redis = RedisServer.start();
            kafka = KafkaCluster.single();
            service = RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), redis.uri(),
                    kafka.bootstrapServers(), Map.of());
            hot = HotStoreChecks.standalone(redis.uri());
        }

        @AfterAll
        void stop() throws Exception {
            hot.close();
            service.close();
            kafka.close();
            redis.close();
        }

        /** As on the standard tier: the sweeper finishes an expiry left half-way, through Kafka. */
        @Test
        void anExpiryLeftHalfWayIsFinishedByTheSweeperNotJournaledLineByLine() {
            String first = Ids.sku("left-a");
            String second = Ids.sku("left-b");
            String order = twoLineOrder(service, hot, first, second);

            settledFirstLineThenLeft(hot, redis.uri(), order, first, "EXPIRING", "EXPIRE", true);

            hot.awaitDrained(first);
            service.awaitJournalApplied(first, second);
            assertThat(service.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                    order)).isEqualTo("EXPIRED");
            assertThat(LedgerChecks.totals(service.jdbc(), second).reserved())
                    .as("the line that had not moved is settled with the order, not left holding").isZero();
            assertThat(LedgerChecks.totals(service.jdbc(), first).reserved()).isZero();
            hot.awaitMatchesDatabase(service.jdbc(), first);
            hot.awaitMatchesDatabase(service.jdbc(), second);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), second);
        }

        @Test
        void hypothesis1AdjustDownMidSale() throws Exception {
            adjustDownMidSaleLosesNoAcknowledgedReservation(service);
        }

        @Test
        void hypothesis2And3SkusTheHotStoreLostAreLoadedAgainOnlyOnceTheJournalIsApplied() {
            StockGuardClient client = service.client();
            List<String> skus = new ArrayList<>();
            for (int i = 0; i < 220; i++) {
                String sku = Ids.sku("lost" + i);
                client.putSku(sku, 3, 1);
                skus.add(sku);
                assertThat(client.reserve(Ids.order("first"), new StockGuardClient.Line(sku, 1)).status())
                        .isEqualTo(201);
            }
            // Redis loses everything (a restart without persistence): more SKUs than any refresh
            // limit would have let through.
            hot.redis().flushall();

            for (String sku : skus) {
                await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(100)).until(() ->
                        client.reserve(Ids.order("again"), new StockGuardClient.Line(sku, 2)).status() == 201);
            }
            for (String sku : skus.subList(0, 20)) {
                assertThat(client.reserve(Ids.order("none"), new StockGuardClient.Line(sku, 1)).code())
                        .as("the first unit (in Kafka when Redis lost it) is counted: sold out")
                        .isEqualTo("INSUFFICIENT_STOCK");
            }
            service.awaitJournalApplied(skus.getFirst());
            LedgerChecks.assertNoOversell(service.jdbc(), skus.getFirst(), 3);
        }

        @Test
        void hypothesis3ASkuFirstUsedSecondsAfterItWasCreatedIsServed() {
            StockGuardClient client = service.client();
            String sku = Ids.sku("late-full");
            client.putSku(sku, 10, 2);
            // The scenario itself: first used a while after it was created (not a wait for anything).
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofSeconds(3).toNanos());

            assertThat(client.reserve(Ids.order("late"), new StockGuardClient.Line(sku, 1)).status()).isEqualTo(201);
        }
    }

    /** Two SKUs of 10 units, and an order of 2 and 3 of them, journaled. */
    static String twoLineOrder(RunningService service, HotStoreChecks hot, String first, String second) {
        StockGuardClient client = service.client();
        client.putSku(first, 10, 1);
        client.putSku(second, 10, 1);
        String order = Ids.order("left");
        assertThat(client.reserve(order, new StockGuardClient.Line(first, 2), new StockGuardClient.Line(second, 3))
                .status()).isEqualTo(201);
        hot.awaitDrained(first);
        hot.awaitDrained(second);
        service.awaitJournalApplied(first, second);
        return order;
    }

    /**
     * What a settlement leaves when it goes away after its first line: the order record in
     * {@code settling}, the first line moved ({@code how}) in Redis with its change in the outbox
     * (made long enough ago for the sweeper), the second line untouched.
     *
     * @param left whether its caller has gone quiet already (else it was touched just now)
     */
    static void settledFirstLineThenLeft(HotStoreChecks hot, String redisUri, String order, String first,
            String settling, String how, boolean left) {
        long touched = System.currentTimeMillis() - (left ? 120_000 : 0);
        hot.redis().hset("sg:{o:" + order + "}", Map.of("st", settling, "u", Long.toString(touched)));
        String epoch = hot.redis().hget("sg:{" + first + "}:m", "epoch");
        try (RedisGateway gateway = new RedisGateway(ScriptFixture.properties(redisUri),
                io.github.resilience4j.circuitbreaker.CircuitBreaker.ofDefaults("test"))) {
            Reply moved = new Reply(gateway.run(Script.RELEASE, Keys.reserveKeys(
                    io.stockguard.stock.SkuId.of(first), io.stockguard.stock.OrderId.of(order)), List.of(order,
                    how, Long.toString(System.currentTimeMillis() - 120_000), "", "test", "3600",
                    io.stockguard.journal.EventIds.next(), epoch)));
            assertThat(moved.status()).isEqualTo("OK");
        }
    }

    private static double takeovers(RunningService service) {
        var counter = service.bean(io.micrometer.core.instrument.MeterRegistry.class).find("stockguard.hot.takeovers")
                .counter();
        return counter == null ? 0 : counter.count();
    }
}
