package io.stockguard.chaos.nemesis;

import io.stockguard.chaos.Tier;
import io.stockguard.chaos.cluster.Cluster;
import io.stockguard.chaos.cluster.RedisNodes;
import io.stockguard.chaos.cluster.RedisSetup;
import io.stockguard.chaos.cluster.SentinelRedis;
import io.stockguard.chaos.cluster.ServiceInstance;
import io.stockguard.chaos.workload.Catalogue;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisCluster;
import io.stockguard.testkit.RedisServer;
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
    /** Faults of the master behind its proxy: not for a deployment with a Sentinel or a cluster. */
    private static final RedisSetup PROXIED = RedisSetup.PROXIED;
    /** How long a promotion in a cluster may take before the fault gives up on it. */
    private static final Duration PROMOTION_WAIT_MAX = Duration.ofSeconds(30);
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
                        + "(the last writes lost) and the service follows it through the Sentinel", REDIS_TIERS, 8,
                        RedisSetup.SENTINEL,
                        (cluster, random) -> {
                            SentinelRedis redis = cluster.sentinel().orElseThrow(
                                    () -> new IllegalStateException("this deployment has no Sentinel"));
                            redis.cutReplicaOff();
                            LockSupport.parkNanos(REPLICA_BEHIND.toNanos());
                            redis.killMaster();
                            return Fault.injected("master killed; the Sentinel promotes the replica 3 s behind",
                                    redis::awaitPromotionAndRestoreAReplica);
                        }),
                fault("redis-slot-migration", "Redis Cluster: the slots of every SKU the master of the hot SKU "
                        + "serves move to another master, keys and all (clients hear TRYAGAIN, ASK, then MOVED)",
                        REDIS_TIERS, 5, RedisSetup.CLUSTER, (cluster, random) -> {
                            RedisCluster redis = redisCluster(cluster);
                            RedisServer from = redis.masterOf(redis.slot(HOT_TAG));
                            RedisServer to = otherMaster(redis, from);
                            int moved = 0;
                            for (String tag : CATALOGUE_TAGS) {
                                int slot = redis.slot(tag);
                                if (redis.masterOf(slot) == from) {
                                    redis.migrateSlot(slot, to);
                                    moved++;
                                }
                            }
                            return Fault.injected(moved + " slots moved from " + from.port() + " to " + to.port(),
                                    () -> { });
                        }),
                fault("redis-cluster-failover", "Redis Cluster: the replica of the hot SKU's master takes over "
                        + "by CLUSTER FAILOVER (in step with the master: nothing lost)", REDIS_TIERS, 5,
                        RedisSetup.CLUSTER, (cluster, random) -> {
                            RedisCluster redis = redisCluster(cluster);
                            int slot = redis.slot(HOT_TAG);
                            RedisServer replica = redis.replicaOf(redis.masterOf(slot));
                            expect(replica.command("CLUSTER", "FAILOVER"), "CLUSTER FAILOVER");
                            awaitMaster(redis, slot, replica);
                            return Fault.injected("replica " + replica.port() + " promoted", () -> { });
                        }),
                fault("redis-cluster-takeover", "Redis Cluster, the post-mortem's incident: the hot SKU's replica "
                        + "stopped for 3 s (it misses the sales), its master killed (kill -9), the replica promoted by "
                        + "CLUSTER FAILOVER TAKEOVER; the killed node comes back as a replica", REDIS_TIERS, 5,
                        RedisSetup.CLUSTER, (cluster, random) -> {
                            RedisCluster redis = redisCluster(cluster);
                            int slot = redis.slot(HOT_TAG);
                            RedisServer master = redis.masterOf(slot);
                            RedisServer replica = redis.replicaOf(master);
                            replica.pause();
                            LockSupport.parkNanos(REPLICA_BEHIND.toNanos());
                            master.kill();
                            replica.resume();
                            expect(replica.command("CLUSTER", "FAILOVER", "TAKEOVER"), "CLUSTER FAILOVER TAKEOVER");
                            awaitMaster(redis, slot, replica);
                            return Fault.injected("master " + master.port() + " killed; replica " + replica.port()
                                    + " 3 s behind promoted", master::restart);
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

    /** The hash tag of the hot SKU's keys, and of every SKU of the catalogue. */
    private static final String HOT_TAG = "{" + Catalogue.standard().hot() + "}";
    private static final List<String> CATALOGUE_TAGS = Catalogue.standard().totals().keySet().stream().sorted()
            .map(sku -> "{" + sku + "}").toList();

    private static RedisCluster redisCluster(Cluster cluster) {
        return cluster.redisCluster().orElseThrow(() -> new IllegalStateException("this deployment has no "
                + "Redis Cluster"));
    }

    private static RedisServer otherMaster(RedisCluster redis, RedisServer master) {
        for (RedisServer node : redis.nodes()) {
            if (node != master && node.isRunning() && node.command("ROLE").startsWith("master")) {
                return node;
            }
        }
        throw new IllegalStateException("the cluster has no other master");
    }

    private static void awaitMaster(RedisCluster redis, int slot, RedisServer promoted) {
        long deadline = System.nanoTime() + PROMOTION_WAIT_MAX.toNanos();
        while (redis.masterOf(slot) != promoted) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("node " + promoted.port() + " was not promoted within "
                        + PROMOTION_WAIT_MAX);
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
    }

    private static void expect(String reply, String command) {
        if (!reply.equals("+OK")) {
            throw new IllegalStateException(command + " answered " + reply);
        }
    }

    private static Fault fault(String name, String description, Set<Tier> tiers, int holdSeconds,
            BiFunction<Cluster, Random, Fault.Injected> inject) {
        return fault(name, description, tiers, holdSeconds, null, inject);
    }

    /** A fault of Redis as deployed ({@code redis}), or of anything else (null). */
    private static Fault fault(String name, String description, Set<Tier> tiers, int holdSeconds, RedisSetup redis,
            BiFunction<Cluster, Random, Fault.Injected> inject) {
        return new Fault() {
            @Override
            public RedisSetup needsRedis() {
                return redis;
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
        public RedisSetup needsRedis() {
            return PROXIED;
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
