package io.stockguard.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.chaos.run.Schedule;
import io.stockguard.chaos.cluster.Deployment;
import io.stockguard.chaos.cluster.RedisSetup;
import io.stockguard.chaos.nemesis.Fault;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each way of deploying Redis gets the faults it has, and no fault of another. */
class RedisSetupScheduleTest {

    private static final List<String> CLUSTER_FAULTS = List.of("redis-slot-migration", "redis-cluster-failover",
            "redis-cluster-takeover");

    private static List<String> faults(Tier tier, RedisSetup redis) {
        return Schedule.of(tier, new Deployment(2, 0, redis), null, true, 1, Duration.ofSeconds(30)).faults().stream()
                .map(Fault::name).toList();
    }

    @Test
    void aClusterGetsItsOwnFaultsAndThoseOfEverythingButRedis() {
        assertThat(faults(Tier.REDIS, RedisSetup.CLUSTER)).containsAll(CLUSTER_FAULTS)
                .contains("postgres-pause", "instance-kill", "clock-forward")
                .doesNotContain("redis-kill", "redis-failover-fast", "redis-partition-one", "redis-sentinel-failover");
        assertThat(faults(Tier.KAFKA, RedisSetup.CLUSTER)).containsAll(CLUSTER_FAULTS).contains("kafka-pause");
        assertThat(faults(Tier.REDIS, RedisSetup.PROXIED)).doesNotContainAnyElementsOf(CLUSTER_FAULTS)
                .contains("redis-kill", "redis-partition-one");
        assertThat(faults(Tier.REDIS, RedisSetup.SENTINEL)).doesNotContainAnyElementsOf(CLUSTER_FAULTS)
                .contains("redis-sentinel-failover").doesNotContain("redis-kill");
        assertThat(faults(Tier.DB, RedisSetup.PROXIED)).doesNotContainAnyElementsOf(CLUSTER_FAULTS);
    }

    @Test
    void aReportsRerunLineRunsTheFaultsInTheOrderTheyRan() {
        Deployment deployment = new Deployment(2, 0, RedisSetup.PROXIED);
        for (long seed = 1; seed <= 5; seed++) {
            List<String> ran = Schedule.of(Tier.KAFKA, deployment, null, true, seed, Duration.ofSeconds(30)).faults()
                    .stream().map(Fault::name).toList();
            // The rerun line names them in the order they ran; the same seed must run that order again.
            List<String> rerun = Schedule.of(Tier.KAFKA, deployment, ran, true, seed, Duration.ofSeconds(30))
                    .faults().stream().map(Fault::name).toList();
            assertThat(rerun).as("seed " + seed).isEqualTo(ran);
        }
        assertThatThrownBy(() -> Schedule.of(Tier.KAFKA, deployment, List.of("no-such-fault"), true, 1,
                Duration.ofSeconds(30))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aClusterRunsWithoutReplicaAcknowledgementOnly() {
        Options cluster = Options.parse("--redis-cluster");
        assertThat(cluster.deployments(Tier.REDIS)).containsExactly(new Deployment(2, 0, RedisSetup.CLUSTER));
        assertThat(cluster.deployments(Tier.REDIS).getFirst().options()).contains("--redis-cluster");
        assertThatThrownBy(() -> Options.parse("--redis-cluster", "--wait-replicas=1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wait-replicas=0 only");
        assertThatThrownBy(() -> Options.parse("--redis-cluster", "--sentinel"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one at a time");
        assertThatThrownBy(() -> new Deployment(2, 1, RedisSetup.CLUSTER)).isInstanceOf(IllegalArgumentException.class);
    }
}
