package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Whether a load may be tried while the replicas are missing (the logic only: Redis is a stub
 * here; ReplicaAcknowledgementIT and the chaos suite run it against real ones).
 */
class ReplicaAcknowledgementTest {

    private final RedisGateway redis = mock(RedisGateway.class);
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private ReplicaAcknowledgement replicas;

    @BeforeEach
    void replicasGoMissing() {
        RedisProperties properties = ScriptFixture.properties("redis://localhost:6379", 1);
        replicas = new ReplicaAcknowledgement(redis, properties, new SimpleMeterRegistry(), nanos::get);
        assertThat(replicas.mayLoad()).as("nothing missing yet: a load may always be tried").isTrue();
        when(redis.replicasAfterEarlierWrites(anyInt(), any())).thenReturn(0L);
        when(redis.connectedReplicas()).thenReturn(0);
        assertThat(replicas.replicated()).isFalse();
        assertThat(replicas.missing()).isTrue();
    }

    @Test
    void whileRedisReportsNoReplicaNoLoadIsTriedAndRedisIsAskedAtMostEveryProbeInterval() {
        assertThat(replicas.mayLoad()).isFalse();
        assertThat(replicas.mayLoad()).isFalse();
        nanos.addAndGet(ReplicaAcknowledgement.LOAD_PROBE_EVERY.toNanos() - 1);
        assertThat(replicas.mayLoad()).isFalse();
        // Once for the wait that found them missing, once for the first probe: the others took its answer.
        verify(redis, times(2)).connectedReplicas();

        when(redis.connectedReplicas()).thenReturn(1);
        nanos.addAndGet(2);
        assertThat(replicas.mayLoad()).as("Redis reports the replica again").isTrue();
        verify(redis, times(3)).connectedReplicas();
        assertThat(replicas.missing()).as("only a load that succeeds marks them present").isTrue();
        replicas.present();
        assertThat(replicas.mayLoad()).isTrue();
    }

    @Test
    void aRedisThatDoesNotAnswerTheProbeGetsNoLoad() {
        when(redis.connectedReplicas()).thenThrow(new RedisGateway.HotStoreUnavailable("Redis is down", null));
        assertThat(replicas.mayLoad()).isFalse();
        nanos.addAndGet(ReplicaAcknowledgement.LOAD_PROBE_EVERY.toNanos());
        assertThat(replicas.mayLoad()).isFalse();
    }
}
