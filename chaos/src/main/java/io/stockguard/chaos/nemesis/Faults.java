package io.stockguard.chaos.nemesis;

import io.stockguard.chaos.Tier;
import io.stockguard.chaos.cluster.Cluster;
import io.stockguard.chaos.cluster.RedisNodes;
import io.stockguard.chaos.cluster.SentinelRedis;
import io.stockguard.chaos.cluster.ServiceInstance;
import io.stockguard.testkit.KafkaCluster;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;

/** Every fault the suite knows, by name. */
public final class Faults {

    private static final Set<Tier> ALL = EnumSet.allOf(Tier.class);
    private static final Set<Tier> REDIS_TIERS = EnumSet.of(Tier.REDIS, Tier.KAFKA);
    private static final Set<Tier> KAFKA_TIER = EnumSet.of(Tier.KAFKA);
    /** Faults of the master behind its proxy: not for a deployment with a Sentinel. */
    private static final Boolean PROXIED = false;
    /** How long a cut-off replica misses the master's writes before the failover. */
    private static final Duration REPLICA_BEHIND = Duration.ofSeconds(3);

    private Faults() {
    }

    public static List<Fault> all() {
        return List.of(
                fault("redis-kill", "Redis master killed (kill -9) and restarted empty", REDIS_TIERS, 8, PROXIED,
                        (cluster, random) -> {
                            RedisNodes redis = redis(cluster);
                            redis.killMaster();
                            return Fault.injected("master killed", redis::restartEmpty);
                        }),
                fault("redis-failover-fast", "the post-mortem's incident: a replica cut off 3 s earlier replaces the "
                        + "master on its address at once (no outage a breaker can see), the last writes lost",
                        REDIS_TIERS, 0, PROXIED, (cluster, random) -> {
                            RedisNodes redis = redis(cluster);
                            redis.cutReplicaOff();
                            LockSupport.parkNanos(REPLICA_BEHIND.toNanos());
                            redis.killMasterKeepingReplicaData();
                            redis.promoteReplica();
                            return Fault.injected("replica 3 s behind promoted at once", () -> { });
                        }),
                fault("redis-failover-slow", "a replica cut off 3 s earlier replaces the master after a 5 s "
                        + "outage, the last writes lost", REDIS_TIERS, 5, PROXIED, (cluster, random) -> {
                            RedisNodes redis = redis(cluster);
                            redis.cutReplicaOff();
                            LockSupport.parkNanos(REPLICA_BEHIND.toNanos());
                            redis.killMasterKeepingReplicaData();
                            return Fault.injected("master killed; replica 3 s behind promoted after the hold",
                                    redis::promoteReplica);
                        }),
                fault("redis-pause", "Redis master paused (SIGSTOP), then continued", REDIS_TIERS, 8, PROXIED,
                        (cluster, random) -> {
                            RedisNodes redis = redis(cluster);
                            redis.pauseMaster();
                            return Fault.injected("master stopped", redis::resumeMaster);
                        }),
                fault("redis-latency", "300 ms added to every byte between the service and Redis, then every "
                        + "connection dropped", REDIS_TIERS, 8, PROXIED, (cluster, random) -> {
                            RedisNodes redis = redis(cluster);
                            redis.delay(Duration.ofMillis(300));
                            return Fault.injected("300 ms each way", () -> {
                                redis.delay(Duration.ZERO);
                                redis.dropConnections();
                            });
                        }),
                fault("redis-sentinel-failover", "the post-mortem's incident as Redis Sentinel makes it: the replica cut "
                        + "off from the master for 3 s, the master killed (kill -9), the Sentinel promotes the replica "
                        + "(the last writes lost) and the service follows it through the Sentinel", REDIS_TIERS, 8, true,
                        (cluster, random) -> {
                            SentinelRedis redis = cluster.sentinel().orElseThrow(
                                    () -> new IllegalStateException("this deployment has no Sentinel"));
                            redis.cutReplicaOff();
                            LockSupport.parkNanos(REPLICA_BEHIND.toNanos());
                            redis.killMaster();
                            return Fault.injected("master killed; the Sentinel promotes the replica 3 s behind",
                                    redis::awaitPromotionAndRestoreAReplica);
                        }),
                new PartitionOne(),
                new BrokerKill(),
                fault("kafka-pause", "every Kafka process paused (SIGSTOP) for 10 s", KAFKA_TIER, 10,
                        (cluster, random) -> {
                            KafkaCluster kafka = cluster.kafka().orElseThrow();
                            kafka.pauseAll();
                            return Fault.injected("brokers and controller stopped", kafka::resumeAll);
                        }),
                fault("postgres-pause", "PostgreSQL and its backends paused (SIGSTOP) for 10 s", ALL, 10,
                        (cluster, random) -> {
                            cluster.pauseDatabase();
                            return Fault.injected("postmaster and backends stopped", cluster::resumeDatabase);
                        }),
                fault("instance-kill", "one service instance killed (kill -9) and started again (the embedded "
                        + "tier: on the same data folder)", ALL, 3, (cluster, random) -> {
                            List<ServiceInstance> instances = cluster.instances();
                            ServiceInstance victim = instances.get(random.nextInt(instances.size()));
                            victim.kill();
                            return Fault.injected("instance " + victim.name() + " killed", victim::start);
                        }),
                fault("clock-forward", "one instance's clock moved 2 minutes forward, then back", ALL, 15,
                        (cluster, random) -> {
                            List<ServiceInstance> instances = cluster.instances();
                            ServiceInstance victim = instances.get(random.nextInt(instances.size()));
                            victim.skewClock(Duration.ofMinutes(2));
                            return Fault.injected("instance " + victim.name() + " +2 min",
                                    () -> victim.skewClock(Duration.ZERO));
                        }));
    }

    public static Fault named(String name) {
        return all().stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no fault named " + name + "; known: "
                        + all().stream().map(Fault::name).toList()));
    }

    private static RedisNodes redis(Cluster cluster) {
        return cluster.redis().orElseThrow(() -> new IllegalStateException("this tier has no Redis"));
    }

    private static Fault fault(String name, String description, Set<Tier> tiers, int holdSeconds,
            BiFunction<Cluster, Random, Fault.Injected> inject) {
        return fault(name, description, tiers, holdSeconds, null, inject);
    }

    /** A fault of Redis as deployed: behind the proxy ({@code sentinel} false) or with a Sentinel (true). */
    private static Fault fault(String name, String description, Set<Tier> tiers, int holdSeconds, Boolean sentinel,
            BiFunction<Cluster, Random, Fault.Injected> inject) {
        return new Fault() {
            @Override
            public Boolean needsSentinel() {
                return sentinel;
            }

            @Override
            public String name() {
                return name;
            }

            @Override
            public String description() {
                return description;
            }

            @Override
            public Set<Tier> tiers() {
                return tiers;
            }

            @Override
            public Duration hold() {
                return Duration.ofSeconds(holdSeconds);
            }

            @Override
            public Fault.Injected inject(Cluster cluster, Random random) {
                return inject.apply(cluster, random);
            }
        };
    }

    /**
     * One instance cut off from Redis while the others still reach it: the cut-off one takes over
     * the SKUs it is asked for, the others load them again. Two owners' views disagree here, which
     * is what the epoch fence is for.
     */
    private static final class PartitionOne implements Fault {
        @Override
        public String name() {
            return "redis-partition-one";
        }

        @Override
        public String description() {
            return "one service instance cut off from Redis for 8 s while the others still reach it";
        }

        @Override
        public Set<Tier> tiers() {
            return REDIS_TIERS;
        }

        @Override
        public Duration hold() {
            return Duration.ofSeconds(8);
        }

        @Override
        public int instancesNeeded() {
            return 2;
        }

        @Override
        public Boolean needsSentinel() {
            return false;
        }

        @Override
        public Fault.Injected inject(Cluster cluster, Random random) {
            List<ServiceInstance> instances = cluster.instances();
            ServiceInstance victim = instances.get(random.nextInt(instances.size()));
            RedisNodes redis = redis(cluster);
            redis.partition(victim.name());
            return Fault.injected("instance " + victim.name() + " cut off from Redis",
                    () -> redis.reconnect(victim.name()));
        }
    }

    /** One broker of three killed; the others keep every acknowledged event (acks=all, min ISR 2). */
    private static final class BrokerKill implements Fault {
        @Override
        public String name() {
            return "kafka-broker-kill";
        }

        @Override
        public String description() {
            return "one Kafka broker of three killed (kill -9) for 10 s, then started again";
        }

        @Override
        public Set<Tier> tiers() {
            return KAFKA_TIER;
        }

        @Override
        public Duration hold() {
            return Duration.ofSeconds(10);
        }

        @Override
        public boolean needsThreeBrokers() {
            return true;
        }

        @Override
        public Fault.Injected inject(Cluster cluster, Random random) {
            KafkaCluster kafka = cluster.kafka().orElseThrow();
            int broker = 1 + random.nextInt(kafka.brokerCount());
            kafka.killBroker(broker);
            return Fault.injected("broker " + broker + " killed", () -> kafka.startBroker(broker));
        }
    }
}
