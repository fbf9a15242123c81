package io.stockguard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.stockguard.bench.stockguard.LedgerContender;
import io.stockguard.bench.stockguard.RedisLedgerContender;
import io.stockguard.bench.stockguard.Transport;
import io.stockguard.testkit.PostgresServer;
import io.stockguard.testkit.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every contender at small scale, under real concurrency: the correct ones sell exactly what
 * exists, the naive ones are caught overselling, so the benchmark demonstrably sees overselling.
 */
class ContendersIT {

    private static final int UNITS = 100;
    private static final int CLIENTS = 16;
    /** Techniques that may give up (retries or lock waits exhausted) or turn buyers away from a dry bucket. */
    private static final Set<String> MAY_LEAVE_STOCK = Set.of("db-optimistic", "redis-watch", "redis-lock",
            "db-8-buckets");

    private static RedisServer redis;
    private static RedisClient redisClient;
    private static List<Contender> contenders;

    @BeforeAll
    static void start() {
        redis = RedisServer.start();
        redisClient = RedisClient.create(redis.uri());
        contenders = Bench.contenders(redis.uri(), redisClient, () -> PostgresServer.instance().newDatabase(),
                UnaryOperator.identity(), Transport.LEAN_HTTP).stream().filter(c -> !c.name().endsWith("-http")).toList();
    }

    @AfterAll
    static void stop() throws Exception {
        for (Contender contender : contenders) {
            contender.close();
        }
        redisClient.shutdown();
        redis.close();
    }

    static Stream<String> names() {
        return Stream.of("db-naive", "db-for-update", "db-optimistic", "db-conditional", "db-8-buckets",
                "redis-naive", "redis-lock", "redis-watch", "redis-lua", "stockguard-db", "stockguard-db-single",
                "stockguard-redis", "stockguard-redis-wait1", "stockguard-kafka");
    }

    @ParameterizedTest
    @MethodSource("names")
    void correctContendersNeverOversellAndNaiveOnesAreCaughtOverselling(String name) throws Exception {
        Contender contender = contenders.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
        Runner runner = new Runner(Duration.ofSeconds(30), WarmUp.ofThisJvm(Duration.ZERO), "t" + System.nanoTime() % 100_000,
                Profiler.OFF);
        Scenario scenario = Scenario.hotSku(UNITS, 2_000);
        if (!contender.claimsCorrectness()) {
            long oversold = 0;
            for (int round = 0; round < 5 && oversold == 0; round++) {
                oversold = runner.run(scenario, contender, CLIENTS, round + 1).oversoldUnits();
            }
            assertThat(oversold).as("%s oversells under %d clients", name, CLIENTS).isPositive();
            return;
        }
        RunResult result = runner.run(scenario, contender, CLIENTS, 1);
        assertThat(result.oversoldUnits()).as("oversold").isZero();
        assertThat(result.unaccountedUnits()).as("units the store lost track of").isZero();
        assertThat(result.errors()).as("errors").isZero();
        assertThat(result.attempts()).isEqualTo(2_000);
        if (MAY_LEAVE_STOCK.contains(name)) {
            assertThat(result.sold()).isBetween(1L, (long) UNITS);
        } else {
            assertThat(result.sold()).as("sold exactly the stock").isEqualTo(UNITS);
            assertThat(result.falseSoldOuts()).isZero();
        }
        if (contender instanceof LedgerContender ledger) {
            assertThat(ledger.acknowledgedCount()).as("acknowledged reservations").isEqualTo(result.sold());
            assertThat(ledger.acknowledgedMissingFromDatabase()).as("acknowledged, yet not held in the database")
                    .isZero();
        }
        if (contender instanceof RedisLedgerContender hot) {
            assertThat(hot.servedByDatabase()).as("reservations the hot store left to the database fallback")
                    .isZero();
            assertThat(hot.hotStoreDifference(scenario.catalogue())).as("units by which Redis and the database "
                    + "disagree").isZero();
            if (hot.waitReplicas() == 0) {
                assertThat(hot.replicaWaits()).as("no replica waits without wait-replicas").isZero();
            } else {
                // Shared: every acknowledged reservation is covered by a wait, one wait by many.
                assertThat(hot.replicaWaits()).as("waits for %d replicas", hot.waitReplicas()).isPositive()
                        .isLessThanOrEqualTo(result.sold());
                assertThat(hot.shortWaitsLastRun()).as("waits short of the replicas").isZero();
            }
        }
    }
}
