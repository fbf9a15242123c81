package io.stockguard.journal.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.LoadDriver;
import io.stockguard.testing.Progress;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TcpProxy;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The full tier under the failures the issue names, each during a steady load: Kafka gone, one
 * broker of three gone, the database gone. Afterwards every reservation a client was told about
 * is in the database exactly once, in the state the client was told, nothing is oversold, and
 * Redis agrees with the database.
 */
class KafkaFailuresIT {

    private static final long SUPPLY = 1_000_000;
    private static final int CLIENTS = 12;
    /** How long the stalled database holds every byte: longer than the degrade may take to be declared. */
    private static final Duration STALL = Duration.ofSeconds(12);

    @Test
    void withEveryBrokerDownForTenSecondsReservationsGoOnThroughTheDatabaseJournal() throws Exception {
        try (RedisServer redis = RedisServer.start();
                KafkaCluster kafka = KafkaCluster.single();
                RunningService service = RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        redis.uri(), kafka.bootstrapServers(), Map.of());
                HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
            String sku = Ids.sku("kafka-down");
            service.client().putSku(sku, SUPPLY);
            LoadDriver load = new LoadDriver(service.client(), sku, CLIENTS);
            try (load) {
                long start = System.nanoTime();
                awaitProgress(load, start, 3, 200);
                kafka.killAllBrokers();
                long acknowledgedAtKill = load.told().size();
                awaitProgress(load, start, 13, acknowledgedAtKill + 200);
                kafka.startAllBrokers();
                long acknowledgedAtRestart = load.told().size();
                awaitProgress(load, start, 18, acknowledgedAtRestart + 200);
                load.stop();
                report("every broker down 10 s", load, start);
                assertThat(load.serverErrors()).as("5xx of %d requests", load.requests())
                        .isLessThanOrEqualTo(load.requests() / 50);
            }
            assertThat(service.metric("stockguard_journal_path_total", "path=\"database\"")).as(
                    "events journaled to the database while Kafka was down").isPositive();
            assertConsistent(service, hot, sku, load);
        }
    }

    /** The 30 s load: one broker of three killed 3 s in, leaders move, nothing acknowledged is lost. */
    @Test
    void aBrokerOfThreeKilledUnderLoadLosesNoAcknowledgedReservation() throws Exception {
        try (RedisServer redis = RedisServer.start();
                KafkaCluster kafka = KafkaCluster.start(3);
                RunningService service = RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        redis.uri(), kafka.bootstrapServers(), Map.of("stockguard.kafka.replication-factor", "3",
                                "stockguard.kafka.min-insync-replicas", "2"));
                HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
            String sku = Ids.sku("broker-down");
            service.client().putSku(sku, SUPPLY);
            LoadDriver load = new LoadDriver(service.client(), sku, CLIENTS);
            try (load) {
                long start = System.nanoTime();
                awaitProgress(load, start, 3, 200);
                kafka.killBroker(2);
                long acknowledgedAtKill = load.told().size();
                awaitProgress(load, start, 30, acknowledgedAtKill + 200);
                load.stop();
                report("one broker of three killed", load, start);
                assertThat(load.serverErrors()).as("5xx of %d requests", load.requests())
                        .isLessThanOrEqualTo(load.requests() / 50);
            }
            assertConsistent(service, hot, sku, load);
        }
    }

    /**
     * The database gone for ten seconds: reservations are still acknowledged (Kafka holds them),
     * the backlog crosses its (low, for the test) threshold so new reservations are throttled, and
     * once the database is back the writer catches up and the throttle lifts.
     */
    @Test
    void withTheDatabaseDownForTenSecondsReservationsAreAcknowledgedAndTheWriterCatchesUp() throws Exception {
        TestDatabase direct = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        try (TcpProxy proxy = TcpProxy.to(direct.port());
                RedisServer redis = RedisServer.start();
                KafkaCluster kafka = KafkaCluster.single();
                RunningService service = RunningService.startFull(direct.atPort(proxy.port()), redis.uri(),
                        kafka.bootstrapServers(), Map.of(
                                "stockguard.kafka.backlog.degrade-above", "300",
                                "stockguard.kafka.backlog.recover-below", "100",
                                "stockguard.kafka.backlog.reservations-per-second", "20",
                                "spring.datasource.hikari.connection-timeout", "1000"));
                HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
            String sku = Ids.sku("db-down");
            service.client().putSku(sku, SUPPLY);
            LoadDriver load = new LoadDriver(service.client(), sku, CLIENTS);
            try (load) {
                long start = System.nanoTime();
                awaitProgress(load, start, 3, 200);
                proxy.cut();
                long acknowledgedAtCut = load.told().size();
                awaitProgress(load, start, 13, acknowledgedAtCut + 100);
                long acknowledgedDuringCut = load.told().size() - acknowledgedAtCut;
                long throttled = load.count(429);
                proxy.restore();
                // The writer's catching up takes as long as the machine makes it: the wait lasts
                // while the backlog keeps shrinking.
                Progress.awaitWhileShrinking("the journal backlog to fall below its recovery threshold",
                        () -> service.metric("stockguard_journal_backlogged", "") == 0,
                        () -> (long) service.metric("stockguard_journal_backlog", ""), Duration.ofSeconds(60));
                long acknowledgedAtRestore = load.told().size();
                awaitProgress(load, start, 0, acknowledgedAtRestore + 200);
                load.stop();
                report("database down 10 s", load, start);
                assertThat(acknowledgedDuringCut).as("acknowledged while the database was down").isGreaterThan(100);
                assertThat(throttled).as("429 THROTTLED while the backlog was over its threshold").isPositive();
                assertThat(load.serverErrors()).as("5xx of %d requests", load.requests())
                        .isLessThanOrEqualTo(load.requests() / 50);
            }
            assertConsistent(service, hot, sku, load);
        }
    }

    /**
     * A database that stalls (paused, not gone: connections stay open and nothing answers) holds
     * every sweep that queries it, and with them the shared scheduler's threads. The backlog must
     * still be measured and the degrade declared while the stall lasts, not once it is over.
     */
    @Test
    void aStalledDatabaseHasItsBacklogDeclaredWhileTheStallLasts() throws Exception {
        TestDatabase direct = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        try (TcpProxy proxy = TcpProxy.to(direct.port());
                RedisServer redis = RedisServer.start();
                KafkaCluster kafka = KafkaCluster.single();
                RunningService service = RunningService.startFull(direct.atPort(proxy.port()), redis.uri(),
                        kafka.bootstrapServers(), Map.of(
                                "stockguard.kafka.backlog.degrade-above", "100",
                                "stockguard.kafka.backlog.recover-below", "20"));
                HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
            String sku = Ids.sku("db-stalled");
            service.client().putSku(sku, SUPPLY);
            LoadDriver load = new LoadDriver(service.client(), sku, CLIENTS);
            try (load) {
                long start = System.nanoTime();
                awaitProgress(load, start, 3, 200);
                proxy.delay(STALL);
                long stalledAt = System.nanoTime();
                try {
                    await().atMost(STALL.minusSeconds(2)).pollInterval(Duration.ofMillis(200))
                            .until(() -> service.metric("stockguard_journal_backlogged", "") == 1);
                    assertThat(Duration.ofNanos(System.nanoTime() - stalledAt)).as("declared during the stall")
                            .isLessThan(STALL);
                } finally {
                    proxy.delay(Duration.ZERO);
                }
                Progress.awaitWhileShrinking("the journal backlog to fall below its recovery threshold",
                        () -> service.metric("stockguard_journal_backlogged", "") == 0,
                        () -> (long) service.metric("stockguard_journal_backlog", ""), Duration.ofSeconds(60));
                load.stop();
                report("database stalled " + STALL.toSeconds() + " s", load, start);
            }
            assertConsistent(service, hot, sku, load);
        }
    }

    private static void awaitProgress(LoadDriver load, long start, int atLeastSeconds, long acknowledged) {
        load.awaitAcknowledged(start, Duration.ofSeconds(atLeastSeconds), acknowledged - 1);
    }

    private static void report(String what, LoadDriver load, long start) {
        System.out.printf("%s: %d requests in %s, %d acknowledged, statuses %s%n", what, load.requests(),
                LoadDriver.since(start), load.told().size(), load.statuses());
    }

    private static void assertConsistent(RunningService service, HotStoreChecks hot, String sku, LoadDriver load) {
        hot.awaitDrained(sku);
        service.awaitJournalApplied(sku);
        load.assertStoredStateMatches(service.jdbc());
        LedgerChecks.assertNoOversell(service.jdbc(), sku, SUPPLY);
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        hot.assertMatchesDatabase(service.jdbc(), sku);
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM anomaly WHERE sku_id = ?", Integer.class, sku))
                .as("anomalies").isZero();
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM dead_letter", Integer.class))
                .as("dead letters").isZero();
    }
}
