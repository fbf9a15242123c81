package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.testing.RunningService;
import io.stockguard.testkit.TestDatabase;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;

/** A bad setting stops the service at start, with a message that names it; nothing runs on a guess. */
class SettingsIT {

    @Test
    void aMisspeltTierStopsTheServiceNamingTheSetting() {
        assertFailsNaming(() -> RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                Map.of("stockguard.ledger", "redsi")), "stockguard.ledger");
    }

    @Test
    void aKafkaJournalWithoutTheRedisLedgerStopsTheServiceNamingBothSettings() {
        assertFailsNaming(() -> RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                Map.of("stockguard.journal", "kafka")), "stockguard.ledger=redis");
    }

    @Test
    void aKafkaMinimumOfReplicasAboveTheReplicationFactorStopsTheService() {
        assertFailsNaming(() -> RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                "redis://127.0.0.1:1", false, Map.of("stockguard.journal", "kafka",
                        "stockguard.kafka.replication-factor", "1", "stockguard.kafka.min-insync-replicas", "2")),
                "stockguard.kafka.min-insync-replicas");
    }

    @Test
    void moreKafkaWritersThanPartitionsStopTheServiceNamingBothSettings() {
        assertFailsNaming(() -> RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                "redis://127.0.0.1:1", false, Map.of("stockguard.journal", "kafka",
                        "stockguard.kafka.partitions", "3", "stockguard.kafka.writer.consumers", "4")),
                "stockguard.kafka.writer.consumers (4) must not exceed stockguard.kafka.partitions (3)");
    }

    @Test
    void aKafkaClientPropertyTheJournalDependsOnStopsTheServiceNamingIt() {
        assertFailsNaming(() -> RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                "redis://127.0.0.1:1", false, Map.of("stockguard.journal", "kafka",
                        "stockguard.kafka.properties.security.protocol", "SASL_SSL",
                        "stockguard.kafka.properties.enable.auto.commit", "true")),
                "stockguard.kafka.properties.enable.auto.commit cannot be set");
    }

    @Test
    void probeLevelsOutOfOrderStopTheServiceNamingTheSetting() {
        assertFailsNaming(() -> RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                Map.of("stockguard.reconciliation.levels.warn", "2", "stockguard.reconciliation.levels.throttle", "1")),
                "stockguard.reconciliation.levels");
    }

    @Test
    void anOutOfRangeRedisTimeoutStopsTheServiceNamingTheSetting() {
        assertFailsNaming(() -> RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                "redis://127.0.0.1:1", false, Map.of("stockguard.redis.command-timeout", "1ms")),
                "stockguard.redis.command-timeout");
    }

    @Test
    void anOutOfRangeNestedRedisSettingStopsTheServiceNamingTheSetting() {
        assertFailsNaming(() -> RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                "redis://127.0.0.1:1", false, Map.of("stockguard.redis.outbox.batch-size", "0")),
                "outbox.batchSize");
        assertFailsNaming(() -> RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                "redis://127.0.0.1:1", false, Map.of("stockguard.redis.breaker.open-for", "1ms")),
                "stockguard.redis.breaker.open-for");
    }

    @Test
    void aSocketTimeoutNotLongerThanWhatItMustOutliveStopsTheServiceNamingBothSettings() {
        assertFailsNaming(() -> RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                Map.of("stockguard.database.statement-timeout", "5s", "stockguard.database.socket-timeout", "5s")),
                "stockguard.database.socket-timeout must be at least 1s longer than "
                        + "stockguard.database.statement-timeout");
        assertFailsNaming(() -> RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                Map.of("stockguard.reconciliation.ledger-check-timeout", "30s")),
                "stockguard.reconciliation.ledger-check-timeout (PT30S) must be at least 1s shorter than "
                        + "stockguard.database.socket-timeout");
    }

    private static void assertFailsNaming(ThrowableAssert.ThrowingCallable start, String setting) {
        assertThatThrownBy(start).satisfies(failure -> {
            StringBuilder messages = new StringBuilder();
            for (Throwable t = failure; t != null; t = t.getCause()) {
                messages.append(t.getMessage()).append('\n');
            }
            org.assertj.core.api.Assertions.assertThat(messages.toString()).contains(setting);
        });
    }
}
