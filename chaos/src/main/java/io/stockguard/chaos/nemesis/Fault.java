package io.stockguard.chaos.nemesis;

import io.stockguard.chaos.Tier;
import io.stockguard.chaos.cluster.Cluster;
import io.stockguard.chaos.cluster.RedisSetup;
import java.time.Duration;
import java.util.Random;
import java.util.Set;

/**
 * One kind of failure the suite injects. A fault is injected, held for {@link #hold()}, then
 * healed; one at a time, each healed before the next.
 */
public interface Fault {

    /** The name on the command line and in the history, e.g. {@code redis-kill}. */
    String name();

    /** What a person reading the report needs to know of it, in a sentence. */
    String description();

    /** The tiers that have what this fault breaks. */
    Set<Tier> tiers();

    /** How long the fault lasts between injection and healing. */
    Duration hold();

    /** Whether it needs three Kafka brokers (replication factor 3, min in-sync 2). */
    default boolean needsThreeBrokers() {
        return false;
    }

    /** How Redis must be deployed for it; null for faults of anything but Redis. */
    default RedisSetup needsRedis() {
        return null;
    }

    /** How many service instances it needs (a partition of one instance from Redis needs another that still reaches it). */
    default int instancesNeeded() {
        return 1;
    }

    /** Injects the fault; returns what heals it. {@code random} chooses among instances or brokers. */
    Injected inject(Cluster cluster, Random random);

    /** A fault in place, and how to end it. */
    interface Injected {

        /** What exactly was done (which instance, which broker), for the history. */
        String detail();

        void heal();
    }

    static Injected injected(String detail, Runnable heal) {
        return new Injected() {
            @Override
            public String detail() {
                return detail;
            }

            @Override
            public void heal() {
                heal.run();
            }
        };
    }
}
