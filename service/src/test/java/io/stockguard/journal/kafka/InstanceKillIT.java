package io.stockguard.journal.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.LoadDriver;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.ServiceJar;
import io.stockguard.testkit.ServiceProcess;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two instances share Redis, Kafka and the database; one is killed ({@code kill -9}) in the middle
 * of a load. Whatever it had in flight is either acknowledged (and then applied exactly once) or
 * retried by the client on the other instance with the same order id; the outbox entries it left
 * in Redis are swept by the survivor, and its partitions of the journal move to the survivor.
 */
class InstanceKillIT {

    private static final long SUPPLY = 1_000_000;

    @Test
    void anInstanceKilledMidLoadLeavesEveryAcknowledgedReservationAppliedOnce() throws Exception {
        TestDatabase database = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        try (RedisServer redis = RedisServer.start();
                KafkaCluster kafka = KafkaCluster.single()) {
            Map<String, String> shared = new HashMap<>(Map.of(
                    "stockguard.kafka.topic", "stockguard.events.kill-" + System.nanoTime(),
                    "stockguard.redis.outbox.minimum-age", "2s",
                    "stockguard.redis.outbox.sweep-interval", "500ms"));
            Map<String, String> processSettings = new HashMap<>(shared);
            processSettings.putAll(Map.of("stockguard.ledger", "redis", "stockguard.redis.url", redis.uri(),
                    "stockguard.redis.command-timeout", "2s", "stockguard.journal", "kafka",
                    "stockguard.kafka.bootstrap-servers", kafka.bootstrapServers(),
                    "stockguard.kafka.replication-factor", "1", "stockguard.kafka.min-insync-replicas", "1",
                    "stockguard.kafka.partitions", "4"));
            try (RunningService survivor = RunningService.startFull(database, redis.uri(), kafka.bootstrapServers(),
                    shared);
                    ServiceProcess victim = ServiceJar.start(database, processSettings);
                    HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
                String sku = Ids.sku("kill");
                survivor.client().putSku(sku, SUPPLY);
                LoadDriver load = new LoadDriver(List.of(ServiceJar.client(victim), survivor.client()), sku, 12);
                try (load) {
                    long start = System.nanoTime();
                    load.awaitAcknowledged(start, Duration.ofSeconds(4), 300);
                    victim.kill();
                    long acknowledgedAtKill = load.told().size();
                    load.awaitAcknowledged(start, Duration.ofSeconds(8), acknowledgedAtKill + 300);
                    load.stop();
                    System.out.printf("instance killed: %d requests in %s, %d acknowledged, statuses %s%n",
                            load.requests(), LoadDriver.since(start), load.told().size(), load.statuses());
                }

                hot.awaitDrained(sku);
                survivor.awaitJournalApplied(sku);
                load.assertStoredStateMatches(survivor.jdbc());
                LedgerChecks.assertNoOversell(survivor.jdbc(), sku, SUPPLY);
                LedgerChecks.assertCountersMatchJournal(survivor.jdbc(), sku);
                hot.assertMatchesDatabase(survivor.jdbc(), sku);
                assertThat(survivor.jdbc().queryForObject("SELECT COUNT(*) FROM anomaly WHERE sku_id = ?",
                        Integer.class, sku)).as("anomalies").isZero();
            }
        }
    }
}
