package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A replica wait that fails is "outcome unknown" only when Redis does not answer either: one that
 * fails while Redis answers (a reply later than the command timeout on a starved machine) is judged
 * as a short wait, so a change with no fault gets its definite answer (the logic only: Redis is a
 * stub here; ReplicaAcknowledgementIT and the chaos suite run it against real ones).
 */
class FailedReplicaWaitTest {

    private final RedisGateway redis = mock(RedisGateway.class);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private ReplicaAcknowledgement replicas;

    @BeforeEach
    void theWaitFails() {
        RedisProperties properties = ScriptFixture.properties("redis://localhost:6379", 1);
        replicas = new ReplicaAcknowledgement(redis, properties, meters);
        when(redis.replicasAfterEarlierWrites(anyInt(), any()))
                .thenThrow(new RedisGateway.HotStoreUnavailable("Redis failed: no answer within PT0.6S", null));
    }

    @Test
    void aWaitThatFailsWhileRedisAnswersWithItsReplicaConnectedDegradesNothing() {
        when(redis.connectedReplicas()).thenReturn(1);
        assertThat(replicas.replicated()).as("not known to be replicated").isFalse();
        assertThat(replicas.missing()).as("the replica is connected: Redis goes on selling").isFalse();
        assertThat(meters.counter("stockguard.redis.replica.failed-waits").count()).isEqualTo(1);
        assertThat(meters.counter("stockguard.redis.replica.short-waits").count()).isEqualTo(1);
    }

    @Test
    void aWaitThatFailsWhileRedisAnswersWithoutItsReplicaMarksItMissing() {
        when(redis.connectedReplicas()).thenReturn(0);
        assertThat(replicas.replicated()).isFalse();
        assertThat(replicas.missing()).as("the database sells until the replica is back").isTrue();
    }

    @Test
    void aWaitThatFailsWithRedisSilentTooIsRedisFailingAndSaysHow() {
        when(redis.connectedReplicas()).thenThrow(new RedisGateway.HotStoreUnavailable("Redis failed: refused", null));
        assertThatThrownBy(replicas::replicated).isInstanceOf(RedisGateway.HotStoreUnavailable.class)
                .hasMessageContaining("while waiting for its replicas").hasMessageContaining("no answer within PT0.6S");
        assertThat(replicas.missing()).isFalse();
    }
}
