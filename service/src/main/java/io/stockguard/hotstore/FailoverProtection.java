package io.stockguard.hotstore;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * What keeps a Redis failover from selling stock twice, as {@code /actuator/health} shows it (the
 * {@code hotStore} component; its details to callers with a key) and the start log says it: the
 * history fence, always on (history.lua), and replica acknowledgement when
 * {@code stockguard.redis.wait-replicas} asks for it, with whether the replicas are there. Never
 * DOWN: Redis missing its replicas is a degrade (the database sells), not an outage.
 */
final class FailoverProtection implements HealthIndicator {

    static final String HISTORY_FENCE = "on: a SKU's copy is sold from only under the Redis history (replication id) "
            + "that loaded it; a failover or restart has every SKU loaded again from the database first";

    private final ReplicaAcknowledgement replicas;

    FailoverProtection(ReplicaAcknowledgement replicas) {
        this.replicas = replicas;
    }

    /** The replica acknowledgement in force, in words. */
    String replicaAcknowledgement() {
        if (replicas.wanted() == 0) {
            return "off (stockguard.redis.wait-replicas=0; not needed for the fence)";
        }
        return "every change waits for " + replicas.wanted() + " replica(s)"
                + (replicas.missing() ? "; they are missing: hot SKUs are sold by the database until Redis has them"
                        : "");
    }

    @Override
    public Health health() {
        return Health.up().withDetail("historyFence", HISTORY_FENCE)
                .withDetail("replicaAcknowledgement", replicaAcknowledgement())
                .withDetail("replicasMissing", replicas.missing()).build();
    }
}
