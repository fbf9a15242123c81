package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
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
        RedisProperties properties = new RedisProperties("redis://localhost:6379", false, Duration.ofSeconds(2),
                Duration.ofSeconds(2), Duration.ofDays(8), 100_000, Duration.ofSeconds(30), 1, Duration.ofMillis(100),
                new RedisProperties.Breaker(50, 20, Duration.ofSeconds(3)),
                new RedisProperties.Outbox(Duration.ofSeconds(1), Duration.ofSeconds(10), 500),
                new RedisProperties.Preheat(200, Duration.ofMillis(50), Duration.ofSeconds(5)),
                new RedisProperties.Takeover(Duration.ofSeconds(4), Duration.ofSeconds(2), Duration.ofSeconds(2)),
                null, null, null, new RedisProperties.Tls(null, null, null));
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
