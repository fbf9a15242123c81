package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ScriptOutputType;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The outbox sweeper finds the SKUs' outboxes through the register of loaded SKUs, not by walking
 * every key: the order and line records a sale leaves (two keys a reservation, kept for
 * {@code line-lifetime}) once made each sweep a full pass over the keyspace, every second. What the
 * register misses, the sweeper's slow walk over the keys finds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OutboxRegisterIT {

    /** Keys beside the SKUs' own, as a sale's order and line records are. */
    private static final int RECORDS = 30_000;
    private static final Pattern CALLS = Pattern.compile("cmdstat_(\\w+):calls=(\\d+)");

    private RedisServer redis;
    private RunningService service;
    private HotStoreChecks hot;

    @BeforeAll
    void start() {
        redis = RedisServer.start();
        // Sweeps only when the test asks: the scheduled one waits a minute (the longest allowed).
        service = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), redis.uri(), false,
                Map.of("stockguard.redis.outbox.sweep-interval", "1m"));
        hot = HotStoreChecks.standalone(redis.uri());
        hot.redis().eval("for i = 1, tonumber(ARGV[1]) do redis.call('SET', 'sg:{o:record-' .. i .. '}', 'x') end",
                ScriptOutputType.STATUS, new String[0], Integer.toString(RECORDS));
    }

    @AfterAll
    void stop() throws Exception {
        hot.close();
        service.close();
        redis.close();
    }

    @Test
    void aSweepAsksForTheLoadedSkusAndOnePageOfKeysNotForEveryKey() {
        String sku = loadedSku("register");
        assertThat(hot.redis().sismember(Keys.LOADED, sku)).as("the SKU is registered when it is loaded").isTrue();
        OutboxSweeper sweeper = service.bean(OutboxSweeper.class);

        hot.redis().configResetstat();
        sweeper.sweep();
        Map<String, Long> calls = calls();

        assertThat(calls.getOrDefault("scan", 0L)).as("pages of the walk over every key in one sweep "
                + "(%d keys; a full pass took %d pages; a scheduled sweep may fall in)", hot.redis().dbsize(),
                RECORDS / 100).isBetween(1L, 2L);
        assertThat(calls.getOrDefault("sscan", 0L)).as("pages of the register").isBetween(1L, 2L);
        assertThat(calls.getOrDefault("xlen", 0L)).as("outbox lengths asked").isBetween(1L, 10L);
    }

    @Test
    void anOutboxTheRegisterDoesNotNameIsFoundByTheWalkAndSettled() {
        String sku = loadedSku("walk");
        // The register lost it (a Cluster node's failover), or the outbox is older than the register.
        hot.redis().srem(Keys.LOADED, sku);
        String order = Ids.order("left");
        List<StockLine> asked = List.of(new StockLine(SkuId.of(sku), 2));
        DeadRequests.leftHalfWay(hot, redis.uri(), order, asked, List.of(sku), System.currentTimeMillis() - 120_000,
                false);
        assertThat(hot.redis().xlen(Keys.outbox(SkuId.of(sku)))).as("the dead request's entries").isPositive();
        OutboxSweeper sweeper = service.bean(OutboxSweeper.class);

        long keys = hot.redis().dbsize();
        // A walk's pass: about keys / 1,000 pages (Redis's scan count is a hint), with room to spare.
        long passMax = 2 * keys / 1_000 + 5;
        int sweeps = 0;
        while (hot.redis().xlen(Keys.outbox(SkuId.of(sku))) > 0 && sweeps < passMax) {
            sweeper.sweep();
            sweeps++;
        }

        assertThat(hot.redis().xlen(Keys.outbox(SkuId.of(sku))))
                .as("the outbox after %d sweeps over %d keys", sweeps, keys).isZero();
        assertThat(hot.redis().sismember(Keys.LOADED, sku)).as("registered again when the walk met it").isTrue();
        service.awaitJournalApplied(sku);
        assertThat(LedgerChecks.totals(service.jdbc(), sku).reserved())
                .as("the warm-up's unit and the dead request's whole order, journaled as its retry would find it")
                .isEqualTo(3);
        hot.awaitMatchesDatabase(service.jdbc(), sku);
    }

    /**
     * A copy loaded by a version of the service that kept no register: the first script an
     * instance runs on the SKU registers it, so the sweeper's next sweep finds its outbox.
     */
    @Test
    void theFirstScriptAnInstanceRunsOnASkuRegistersIt() {
        String sku = loadedSku("first-use");
        hot.redis().srem(Keys.LOADED, sku);
        SkuId id = SkuId.of(sku);
        try (RedisGateway upgraded = new RedisGateway(ScriptFixture.properties(redis.uri()),
                io.github.resilience4j.circuitbreaker.CircuitBreaker.ofDefaults("test"))) {
            assertThat(new Reply(upgraded.run(Script.OUTBOX, List.of(Keys.meta(id), Keys.outbox(id)), List.of("10")))
                    .status()).isEqualTo("OK");
            assertThat(hot.redis().sismember(Keys.LOADED, sku)).as("registered by the instance's first script on it")
                    .isTrue();
            hot.redis().srem(Keys.LOADED, sku);
            upgraded.run(Script.OUTBOX, List.of(Keys.meta(id), Keys.outbox(id)), List.of("10"));
            assertThat(hot.redis().sismember(Keys.LOADED, sku)).as("once per SKU while the instance runs").isFalse();
        }
    }

    /** A SKU of 10 units with one reserved, so that Redis holds it. */
    private String loadedSku(String name) {
        String sku = Ids.sku(name);
        StockGuardClient client = service.client();
        client.putSku(sku, 10, 1);
        assertThat(client.reserve(Ids.order("warm"), new StockGuardClient.Line(sku, 1)).status()).isEqualTo(201);
        return sku;
    }

    private Map<String, Long> calls() {
        Map<String, Long> calls = new java.util.HashMap<>();
        Matcher matcher = CALLS.matcher(hot.redis().info("commandstats"));
        while (matcher.find()) {
            calls.put(matcher.group(1), Long.parseLong(matcher.group(2)));
        }
        return calls;
    }
}
