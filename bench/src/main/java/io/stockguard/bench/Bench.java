package io.stockguard.bench;

import io.lettuce.core.RedisClient;
import io.stockguard.bench.db.BucketedConditionalUpdate;
import io.stockguard.bench.db.ConditionalUpdate;
import io.stockguard.bench.db.NaiveReadThenWrite;
import io.stockguard.bench.db.OptimisticRetry;
import io.stockguard.bench.db.SelectForUpdate;
import io.stockguard.bench.redis.LuaDecrement;
import io.stockguard.bench.redis.NaiveGetDecr;
import io.stockguard.bench.redis.SetNxLock;
import io.stockguard.bench.redis.WatchMulti;
import io.stockguard.bench.stockguard.CeilingContender;
import io.stockguard.bench.stockguard.HotStoreRedis;
import io.stockguard.bench.stockguard.KafkaLedgerContender;
import io.stockguard.bench.stockguard.LedgerContender;
import io.stockguard.bench.stockguard.RedisLedgerContender;
import io.stockguard.bench.stockguard.Transport;
import io.stockguard.testkit.PostgresServer;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * {@code ./stockguard bench}: starts its own PostgreSQL and Redis, runs every contender on the same
 * servers with the same client threads and the same requests, and writes a table, JSON and an HTML
 * report. Everything is measured in this one run, so ratios compare like with like.
 */
public final class Bench {

    /**
     * The Redis ledger's settings in the bench. One machine runs the clients, the service, PostgreSQL
     * and Redis (two cores, here shared with other builds): at the default 500 ms command timeout a
     * stall of the machine reads as a Redis failure, the circuit breaker opens, and the run would
     * measure the database fallback instead. The service's own tests raise it for the same reason;
     * every run's notes say how many reservations fell back all the same.
     */
    private static final Map<String, String> HOT_STORE_SETTINGS = Map.of("stockguard.redis.command-timeout", "2s");

    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        if (java.util.Arrays.asList(args).contains("--help") || java.util.Arrays.asList(args).contains("-h")) {
            System.out.print(BenchOptions.USAGE);
            System.exit(0);
            return;
        }
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Path report = run(options);
        System.out.println("\nreport: " + report.toAbsolutePath());
        System.exit(0);
    }

    /** Runs the plan and returns the folder holding the reports. */
    public static Path run(BenchOptions options) throws Exception {
        System.out.printf("StockGuard bench (%s): %d cores, %s, Java %s; %s%n", options.size(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
                System.getProperty("java.version"), options.network().phrase());
        Path folder = options.output().resolve(Instant.now().toString().replace(':', '-'));
        Profiler profiler = options.profile() ? Profiler.into(folder) : Profiler.OFF;
        List<Contender> contenders;
        List<RunResult> results;
        // The servers and contenders own processes (services, Redis servers, Kafka brokers): they go
        // when the run ends, when it fails, and when the bench is stopped (SIGTERM, Ctrl-C).
        try (Teardown teardown = Teardown.onExit()) {
            RedisServer redis = teardown.add(RedisServer.start("--maxclients", "10000"));
            Network.Links links = teardown.add(options.network().links());
            String redisUri = links.redis(redis.uri());
            RedisClient redisClient = RedisClient.create(redisUri);
            teardown.add(redisClient::shutdown);
            List<Contender> all = contenders(redisUri, redisClient, () -> links.database(fresh()), links::redis,
                    options.http());
            for (Contender contender : all) {
                teardown.add(contender);
            }
            contenders = all.stream().filter(options::selects).toList();
            String runId = Long.toString(System.currentTimeMillis() % 100_000_000, 36);
            results = measure(options, contenders, new Runner(options.timeLimit(), WarmUp.ofThisJvm(options.warmUp()), runId,
                    profiler));
        }
        List<RunResult> withCeiling = Report.withCeiling(results);
        Report.write(folder, options, contenders, withCeiling);
        System.out.println();
        System.out.println(Report.table(withCeiling));
        System.out.print(Report.httpCeilingTable(withCeiling));
        System.out.println(Report.legend(options));
        if (profiler.recordings() > 0) {
            System.out.printf("%d JFR recordings (scenario-contender-clients-round.jfr, open with JDK Mission "
                    + "Control or `jfr print`): %s%n", profiler.recordings(), folder.toAbsolutePath());
        }
        return folder;
    }

    /** Runs every contender on every scenario and concurrency; the median of the repetitions of each. */
    private static List<RunResult> measure(BenchOptions options, List<Contender> contenders, Runner runner)
            throws Exception {
        List<RunResult> results = new ArrayList<>();
        for (Scenario scenario : options.scenarios()) {
            List<Integer> levels = scenario.name().equals("hot-sku") ? options.hotSkuClients()
                    : List.of(options.otherClients());
            System.out.printf("%nscenario %s: %s%n", scenario.name(), scenario.description());
            for (int clients : levels) {
                Map<String, List<RunResult>> repeats = new java.util.LinkedHashMap<>();
                // Repetitions are interleaved, so a slow minute of a noisy machine hits every
                // contender alike instead of one of them.
                for (int round = 1; round <= options.repeat(); round++) {
                    for (Contender contender : contenders) {
                        RunResult result = runner.run(scenario, contender, clients, round)
                                .withNotes(contender.notes());
                        repeats.computeIfAbsent(contender.name(), k -> new ArrayList<>()).add(result);
                        System.out.println(Report.line(result) + (options.repeat() > 1 ? "  round " + round : "")
                                + (result.notes().isEmpty() ? "" : "  [" + result.notes() + "]"));
                    }
                }
                repeats.values().forEach(runs -> results.add(Report.median(runs)));
            }
        }
        return results;
    }

    /**
     * Every contender, each database contender on a database of its own from {@code databases}; the
     * Redis contenders on {@code redis}, a client of the server at {@code redisUri}; a Redis a
     * contender starts for itself is reached through {@code redisReach} (the run's network).
     */
    static List<Contender> contenders(String redisUri, RedisClient redis, Supplier<TestDatabase> databases,
            UnaryOperator<String> redisReach, Transport http) {
        return List.of(
                new NaiveReadThenWrite(databases.get()),
                new SelectForUpdate(databases.get()),
                new OptimisticRetry(databases.get()),
                new ConditionalUpdate(databases.get()),
                new BucketedConditionalUpdate(databases.get()),
                new NaiveGetDecr(redis),
                new SetNxLock(redis),
                new WatchMulti(redis),
                new LuaDecrement(redis),
                new LedgerContender("stockguard-db", "StockGuard database ledger with hot-row coalescing, in process",
                        databases, Map.of(), Transport.IN_PROCESS),
                new LedgerContender("stockguard-db-single", "StockGuard database ledger, one transaction per "
                        + "reservation (coalescing off), in process", databases,
                        Map.of("stockguard.reservation.coalescing.enabled", "false"), Transport.IN_PROCESS),
                new LedgerContender("stockguard-db-http", "StockGuard database ledger as stockguard-db, end to end "
                        + http.phrase(), databases, Map.of(), http),
                new CeilingContender(Report.HTTP_CEILING, databases, http),
                new RedisLedgerContender("stockguard-redis", "StockGuard Redis ledger (standard tier): the service's "
                        + "Lua in Redis, group-committed to the database journal before each acknowledgement, in "
                        + "process; Redis shared with the Redis contenders", databases, HotStoreRedis.shared(redisUri),
                        HOT_STORE_SETTINGS, Transport.IN_PROCESS),
                new RedisLedgerContender("stockguard-redis-wait1", "StockGuard Redis ledger as stockguard-redis, on "
                        + "a Redis of its own with one replica, no reservation acknowledged before the replica has "
                        + "it (stockguard.redis.wait-replicas=1: concurrent reservations share one WAIT 1)", databases,
                        HotStoreRedis.replicated(1, redisReach),
                        HOT_STORE_SETTINGS, Transport.IN_PROCESS),
                new RedisLedgerContender("stockguard-redis-http", "StockGuard Redis ledger as stockguard-redis (its "
                        + "own logical database of the shared Redis), end to end " + http.phrase(), databases,
                        HotStoreRedis.shared(redisUri, 3), HOT_STORE_SETTINGS, http),
                new RedisLedgerContender("stockguard-redis-wait1-http", "StockGuard Redis ledger as "
                        + "stockguard-redis-wait1 (a Redis and replica of its own), end to end " + http.phrase(),
                        databases, HotStoreRedis.replicated(1, redisReach), HOT_STORE_SETTINGS, http),
                new KafkaLedgerContender("stockguard-kafka", "StockGuard full tier: the Redis ledger as "
                        + "stockguard-redis (its own logical database of the shared Redis), journaled to Kafka (one "
                        + "KRaft broker, a process the bench starts) before each acknowledgement and applied to the "
                        + "database by the service's journal writer; counted once the journal is applied",
                        databases, HotStoreRedis.shared(redisUri, 2), HOT_STORE_SETTINGS, Transport.IN_PROCESS),
                new KafkaLedgerContender("stockguard-kafka-http", "StockGuard full tier as stockguard-kafka (a "
                        + "broker and a logical database of the shared Redis of its own), end to end "
                        + http.phrase(), databases, HotStoreRedis.shared(redisUri, 4), HOT_STORE_SETTINGS, http));
    }

    /** A new database on the durable server: commits wait for the disk, as in production. */
    private static TestDatabase fresh() {
        return PostgresServer.durable().newDatabase();
    }
}
