package io.stockguard.journal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockEvents;
import io.stockguard.reservation.OwnershipStore;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.TwoLineOrder;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The standard tier's journal on each database: a change is acknowledged once its entry is
 * committed, and applied to the ledger tables behind the answer exactly once (I2, I3); a hot store
 * that was taken over cannot append (I1); and an entry that cannot be applied is set aside rather
 * than stopping the journal and every hand-over behind it (I9).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AppendedJournalIT {

    private RedisServer redis;
    private HotStoreChecks hot;
    private final Map<TestDatabase.Kind, RunningService> services = new EnumMap<>(TestDatabase.Kind.class);

    @BeforeAll
    void start() {
        redis = RedisServer.start();
        hot = HotStoreChecks.standalone(redis.uri());
    }

    @AfterAll
    void stop() throws Exception {
        services.values().forEach(RunningService::close);
        if (hot != null) {
            hot.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    /** One standard-tier service per database, on one Redis (SKU names never repeat). */
    private RunningService on(TestDatabase.Kind kind) {
        return services.computeIfAbsent(kind, k -> RunningService.startRedis(TestDatabase.fresh(k), redis.uri(), false,
                Map.of()));
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void everyAcknowledgedReservationIsAppliedOnceAndOnlyTheBacklogStays(TestDatabase.Kind kind) throws Exception {
        RunningService service = on(kind);
        StockGuardClient client = service.client();
        String sku = Ids.sku("appended");
        assertThat(client.putSku(sku, 300, 2).status()).isEqualTo(201);
        List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> buyers = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                buyers.add(pool.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        String order = Ids.order("appended");
                        if (client.reserve(order, new StockGuardClient.Line(sku, 1)).status() == 201) {
                            acknowledged.add(order);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> buyer : buyers) {
                buyer.get();
            }
        } finally {
            pool.shutdownNow();
        }
        service.awaitJournalApplied(sku);

        assertThat(acknowledged).as("the stock, exactly").hasSize(300);
        for (String order : acknowledged) {
            assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM stock_event WHERE order_id = ? "
                    + "AND op = 'RESERVE'", Integer.class, order)).as("order %s applied once", order).isEqualTo(1);
        }
        assertThat(LedgerChecks.totals(service.jdbc(), sku).reserved()).isEqualTo(300);
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM journal_entry", Integer.class))
                .as("applied entries are deleted with their apply").isZero();
        assertThat(mark(service, "applied")).as("the applier has every entry").isEqualTo(mark(service, "appended"));
        hot.awaitMatchesDatabase(service.jdbc(), sku);
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void aHotStoreTakenOverCannotAppendAndWhatItAppendedBeforeIsApplied(TestDatabase.Kind kind) {
        RunningService service = on(kind);
        StockGuardClient client = service.client();
        String sku = Ids.sku("fenced-append");
        client.putSku(sku, 10, 1);
        String before = Ids.order("before");
        assertThat(client.reserve(before, new StockGuardClient.Line(sku, 2)).status()).isEqualTo(201);
        long epoch = Long.parseLong(hot.redis().hget("sg:{" + sku + "}:m", "epoch"));

        service.bean(OwnershipStore.class).takeOver(SkuId.of(sku), epoch, Instant.now());
        String late = Ids.order("late");
        StockEvent sale = StockEvents.reserve(OrderId.of(late), SkuId.of(sku), 0, 3,
                new StockEvents.Context(null, "test", Instant.now())).stamped(epoch, 1_000);
        List<EventOutcome> outcomes = service.bean(DurableJournal.class).record(List.of(sale));

        assertThat(outcomes).singleElement().isInstanceOfSatisfying(EventOutcome.Rejected.class,
                rejected -> assertThat(rejected.reason()).isEqualTo(EventOutcome.Reason.FENCED));
        service.awaitJournalApplied(sku);
        assertThat(service.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                before)).as("acknowledged before the take-over: applied").isEqualTo("RESERVED");
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM reservation WHERE order_id = ?",
                Integer.class, late)).as("refused while appended: never applied").isZero();
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM anomaly WHERE event_id = ? AND kind = 'FENCED'",
                Integer.class, sale.eventId())).isEqualTo(1);
        assertThat(LedgerChecks.totals(service.jdbc(), sku).reserved()).isEqualTo(2);
    }

    /**
     * The applier behind this journal, on both databases: an order whose other line's SKU was
     * handed back to the database (its drain found the order still reserved, so nothing to settle)
     * is moved by a later expiry, and the transaction that moves it settles that line too.
     */
    @ParameterizedTest
    @EnumSource(value = TestDatabase.Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void anOrderMovedAfterItsOtherSkuWasHandedBackSettlesThatLine(TestDatabase.Kind kind) {
        RunningService service = on(kind);
        TwoLineOrder made = TwoLineOrder.reserved(service, "expired-late");
        String second = made.second();
        String order = made.order();
        OwnershipStore ownership = service.bean(OwnershipStore.class);
        long epoch = Long.parseLong(hot.redis().hget("sg:{" + second + "}:m", "epoch"));
        ownership.takeOver(SkuId.of(second), epoch, Instant.now());
        assertThat(ownership.finishDrain(SkuId.of(second), Instant.now(), Duration.ZERO, () -> true))
                .isInstanceOf(io.stockguard.reservation.Ownership.Moved.class);

        List<EventOutcome> outcomes = made.expireFirstLine(service, false);

        assertThat(outcomes).containsExactly(EventOutcome.Settled.APPLIED);
        assertThat(service.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                order)).isEqualTo("EXPIRED");
        assertThat(LedgerChecks.totals(service.jdbc(), second).reserved()).as("the handed-back line returned its units")
                .isZero();
        assertThat(service.jdbc().queryForObject("SELECT actor FROM stock_event WHERE order_id = ? AND sku_id = ? "
                + "AND op = 'EXPIRE'", String.class, order, second)).isEqualTo("stockguard:hand-over");
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), second);
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void anEntryThatCannotBeAppliedIsSetAsideAndTheJournalGoesOn(TestDatabase.Kind kind) {
        RunningService service = on(kind);
        StockGuardClient client = service.client();
        String sku = Ids.sku("after-poison");
        client.putSku(sku, 10, 1);
        // An entry no version could read, committed as the appender commits one: numbered under the lock.
        service.bean(TransactionTemplate.class).executeWithoutResult(status -> {
            service.jdbc().update("UPDATE journal_mark SET seq = seq + 1 WHERE name = 'appended'");
            long seq = service.jdbc().queryForObject("SELECT seq FROM journal_mark WHERE name = 'appended'",
                    Long.class);
            service.jdbc().update("INSERT INTO journal_entry (seq, events) VALUES (?, ?)", seq,
                    "not an event".getBytes(StandardCharsets.UTF_8));
        });
        String order = Ids.order("after-poison");
        assertThat(client.reserve(order, new StockGuardClient.Line(sku, 1)).status()).isEqualTo(201);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(service.jdbc().queryForObject(
                "SELECT COUNT(*) FROM dead_letter WHERE source LIKE 'journal_entry@%' AND payload LIKE 'not an event%'",
                Integer.class)).isEqualTo(1));
        service.awaitJournalApplied(sku);
        assertThat(service.jdbc().queryForObject("SELECT state FROM reservation WHERE order_id = ?", String.class,
                order)).as("the entry after it is applied").isEqualTo("RESERVED");
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM journal_entry", Integer.class)).isZero();
    }

    /**
     * Between batches the applier looks for entries without taking the mark: on PostgreSQL a taken
     * mark (a row lock) gives the transaction an id, and its commit waits for the disk, every poll.
     * Each lock leaves its transaction's id in the row's {@code xmax}, so an applier that keeps
     * taking the mark while nothing waits changes it at each poll. (A vacuum may clear it to 0.)
     */
    @Test
    void anIdleApplierLooksForEntriesWithoutLockingTheMark() {
        RunningService service = on(TestDatabase.Kind.POSTGRESQL);
        String sku = Ids.sku("idle-applier");
        assertThat(service.client().putSku(sku, 5, 1).status()).isEqualTo(201);
        assertThat(service.client().reserve(Ids.order("idle-applier"), new StockGuardClient.Line(sku, 1)).status())
                .isEqualTo(201);
        service.awaitJournalApplied(sku);
        String lockedBy = appliedMarkXmax(service);

        Duration polls = AppendedJournalApplier.POLL.multipliedBy(8);
        await().during(polls).atMost(polls.plusSeconds(10))
                .until(() -> Set.of(lockedBy, "0").contains(appliedMarkXmax(service)));
    }

    private static String appliedMarkXmax(RunningService service) {
        return service.jdbc().queryForObject("SELECT xmax::text FROM journal_mark WHERE name = 'applied'",
                String.class);
    }

    private static long mark(RunningService service, String name) {
        return service.jdbc().queryForObject("SELECT seq FROM journal_mark WHERE name = ?", Long.class, name);
    }
}
