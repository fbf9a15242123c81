package io.stockguard.chaos.cluster;

import io.stockguard.chaos.Tier;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisCluster;
import io.stockguard.testkit.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Everything a tier runs on, as real processes started here and stopped here: the service
 * instances, and for the Redis tiers PostgreSQL, Redis (master, replica, proxy; or with a Sentinel;
 * or a Redis Cluster of three masters with a replica each) and Kafka.
 */
public final class Cluster implements AutoCloseable {

    /** The order service's key and the operator's key every instance accepts. */
    public static final String API_KEY = "chaos-order-service-key-0123456789";
    public static final String ADMIN_KEY = "chaos-operator-key-0123456789abcdef";

    private static final List<String> INSTANCE_NAMES = List.of("a", "b", "c", "d");

    private final Tier tier;
    private final Path home;
    private final List<ServiceInstance> instances = new ArrayList<>();
    private Database database;
    private RedisNodes redis;
    private SentinelRedis sentinel;
    private RedisCluster redisCluster;
    private KafkaCluster kafka;
    private Path embeddedData;
    /** Stops the processes once, from close() or from the exit hook. */
    private final AtomicBoolean stopped = new AtomicBoolean();
    /** A run killed (SIGTERM, Ctrl-C) must not leave its servers and instances running. */
    private final Thread stopOnExit = new Thread(this::stop, "chaos-cluster-stop");

    private Cluster(Tier tier, Path home) {
        this.tier = tier;
        this.home = home.toAbsolutePath();
    }

    /**
     * Starts the tier: stores first, then the instances the deployment asks for (sharing the
     * stores; the embedded tier's one keeps its database in its own data folder).
     *
     * @param kafkaBrokers 1, or 3 (replication factor 3, min in-sync replicas 2) for broker faults
     */
    public static Cluster start(Tier tier, Deployment deployment, Path jar, Path home, int kafkaBrokers) {
        return start(tier, deployment, jar, home, kafkaBrokers, Map.of());
    }

    /** As {@link #start(Tier, Deployment, Path, Path, int)}, every instance also given {@code extraSettings}. */
    public static Cluster start(Tier tier, Deployment deployment, Path jar, Path home, int kafkaBrokers,
            Map<String, String> extraSettings) {
        Cluster cluster = new Cluster(tier, home);
        Runtime.getRuntime().addShutdownHook(cluster.stopOnExit);
        try {
            cluster.launch(deployment, jar, kafkaBrokers, extraSettings);
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void launch(Deployment deployment, Path jar, int kafkaBrokers, Map<String, String> extraSettings) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "stockguard.security.api-keys", "order-service:" + API_KEY,
                "stockguard.security.admin-keys", "ops:" + ADMIN_KEY));
        settings.putAll(extraSettings);
        List<String> names = INSTANCE_NAMES.subList(0, deployment.instances());
        if (tier == Tier.DB) {
            // The embedded tier as a user runs it: PostgreSQL in the data folder, on a port it picks.
            embeddedData = home.resolve("data");
            settings.put("stockguard.data-dir", embeddedData.toString());
        } else {
            database = Database.start(home);
            switch (deployment.redis()) {
                case SENTINEL -> sentinel = SentinelRedis.start();
                case CLUSTER -> {
                    redisCluster = RedisCluster.startWithReplicas();
                    settings.put("stockguard.redis.cluster", "true");
                }
                case PROXIED -> redis = RedisNodes.start();
            }
            // Every other setting is the service's default: what a new user runs.
            settings.putAll(Map.of("spring.datasource.url", database.jdbcUrl(),
                    "spring.datasource.username", "postgres", "spring.datasource.password", "",
                    "stockguard.ledger", "redis"));
            settings.putAll(deployment.redisSettings());
            if (tier == Tier.KAFKA) {
                kafka = kafkaBrokers == 1 ? KafkaCluster.single() : KafkaCluster.start(kafkaBrokers);
                int replication = Math.min(3, kafkaBrokers);
                settings.putAll(Map.of("stockguard.journal", "kafka",
                        "stockguard.kafka.bootstrap-servers", kafka.bootstrapServers(),
                        "stockguard.kafka.replication-factor", Integer.toString(replication),
                        "stockguard.kafka.min-insync-replicas", Integer.toString(Math.min(2, replication)),
                        "stockguard.kafka.partitions", "4"));
            }
        }
        for (String name : names) {
            Map<String, String> own = new HashMap<>(settings);
            if (redis != null) {
                own.put("stockguard.redis.url", redis.uriFor(name));
            } else if (sentinel != null) {
                own.put("stockguard.redis.url", sentinel.uri());
            } else if (redisCluster != null) {
                own.put("stockguard.redis.url", redisCluster.uris());
            }
            instances.add(new ServiceInstance(name, jar, RedisServer.freePort(), own, home));
        }
        // Two instances starting side by side share the two cores; starting them together saves
        // the time of one start.
        CompletableFuture.allOf(instances.stream().map(i -> CompletableFuture.runAsync(i::start))
                .toArray(CompletableFuture[]::new)).join();
    }

    public Tier tier() {
        return tier;
    }

    public List<ServiceInstance> instances() {
        return List.copyOf(instances);
    }

    public Optional<RedisNodes> redis() {
        return Optional.ofNullable(redis);
    }

    /** Redis with a Sentinel, when the deployment asked for one. */
    public Optional<SentinelRedis> sentinel() {
        return Optional.ofNullable(sentinel);
    }

    /** The Redis Cluster, when the deployment asked for one. */
    public Optional<RedisCluster> redisCluster() {
        return Optional.ofNullable(redisCluster);
    }

    public Optional<KafkaCluster> kafka() {
        return Optional.ofNullable(kafka);
    }

    /** Stops PostgreSQL (and its backends) answering, without closing a connection. */
    public void pauseDatabase() {
        if (database != null) {
            database.pause();
        } else {
            Postmaster.pause(embeddedData.resolve("postgres"));
        }
    }

    public void resumeDatabase() {
        if (database != null) {
            database.resume();
        } else {
            Postmaster.resume(embeddedData.resolve("postgres"));
        }
    }

    /** A connection to the database every instance uses, for the checker's own reads. */
    public Connection databaseConnection() throws SQLException {
        String url = database != null ? database.jdbcUrl()
                : "jdbc:postgresql://localhost:" + Postmaster.port(embeddedData.resolve("postgres")) + "/stockguard";
        return DriverManager.getConnection(url, "postgres", "");
    }

    /**
     * What a killed embedded instance leaves behind: its database server, still holding the data
     * folder. Stopped here only when asked (the restart of the instance itself must cope with it).
     */
    public void stopOrphanedEmbeddedDatabase() {
        if (embeddedData != null) {
            Postmaster.stopIfRunning(embeddedData.resolve("postgres"));
        }
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException exiting) {
            // the hook is running or about to: it stops everything
        }
        stop();
        instances.forEach(ServiceInstance::assertLogsWithinLimit);
    }

    private void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        for (ServiceInstance instance : instances) {
            try {
                instance.close();
            } catch (RuntimeException e) {
                instance.kill();
            }
        }
        stopOrphanedEmbeddedDatabase();
        if (kafka != null) {
            try {
                kafka.resumeAll();
            } catch (RuntimeException ignored) {
                // not paused, or already gone
            }
            kafka.close();
        }
        if (redis != null) {
            redis.close();
        }
        if (sentinel != null) {
            sentinel.close();
        }
        if (redisCluster != null) {
            redisCluster.close();
        }
        if (database != null) {
            database.close();
        }
    }

    static Path folder(Path parent, String name) {
        try {
            return Files.createDirectories(parent.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
