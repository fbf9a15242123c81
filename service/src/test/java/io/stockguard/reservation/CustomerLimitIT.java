package io.stockguard.reservation;

import static io.stockguard.reservation.ReservationApiIT.assertCounters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.ConsoleSession;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RedisOutage;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testing.StockGuardClient.Response;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Per-customer purchase limits on every tier: what one customer holds and bought of a SKU, across
 * all their orders, never passes the SKU's limit; checked with the stock, released by cancel and
 * expiry, idempotent with the order, and kept across a Redis fallback to the database and back.
 */
class CustomerLimitIT {

    private static final Map<String, String> SETTINGS = Map.of(
            "stockguard.reservation.expiry-sweep-interval", "200ms");

    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void databaseTier(TestDatabase.Kind kind) throws Exception {
        Map<String, String> settings = new HashMap<>(SETTINGS);
        settings.putAll(ConsolePeople.settings());
        try (RunningService service = RunningService.start(TestDatabase.fresh(kind), settings)) {
            limitsOneCustomerAcrossOrders(service);
            manyOrdersOfOneCustomerAtOnceHoldTheLimit(service);
            theSkuShowsItsTerms(service);
        }
    }

    /** The API and the console's SKU page say what a SKU's limit and low-stock threshold are. */
    private static void theSkuShowsItsTerms(RunningService service) {
        StockGuardClient client = service.client();
        String sku = Ids.sku("terms");
        client.putSku(sku, 40);
        Response set = client.send("PUT", "/api/v1/skus/" + sku, StockGuardClient.object("total", 40,
                "limitPerCustomer", 3, "lowStockThreshold", 5));
        assertThat(set.status()).as("%s", set.body()).isEqualTo(200);
        Response stored = client.sku(sku);
        assertThat(stored.number("limitPerCustomer")).isEqualTo(3);
        assertThat(stored.number("lowStockThreshold")).isEqualTo(5);
        assertThat(client.send("PUT", "/api/v1/skus/" + sku, StockGuardClient.object("total", 40,
                "lowStockThreshold", -1)).code()).isEqualTo("INVALID_REQUEST");
        assertThat(client.send("PUT", "/api/v1/skus/" + sku, StockGuardClient.object("total", 41)).status())
                .isEqualTo(200);
        assertThat(client.sku(sku).number("limitPerCustomer")).as("a term left out is kept").isEqualTo(3);

        ConsoleSession operator = new ConsoleSession(service.baseUrl());
        assertThat(operator.login(ConsolePeople.OPERATOR).location()).endsWith("/console");
        String page = operator.get("/console/skus/" + sku).body();
        assertThat(page).contains("at most 3 units held and bought");
        assertThat(page).containsPattern("data-field=\"lowStockThreshold\">\\s*<span>5</span>");
    }

    @ParameterizedTest(name = "kafka journal: {0}")
    @ValueSource(booleans = {false, true})
    void redisTiers(boolean kafkaJournal) throws Exception {
        Map<String, String> settings = new HashMap<>(SETTINGS);
        settings.putAll(RedisOutage.QUICK_BREAKER);
        settings.put("stockguard.redis.takeover.delay", "2s");
        try (KafkaCluster kafka = kafkaJournal ? KafkaCluster.start(1) : null;
                RedisServer redis = RedisServer.start();
                RunningService service = kafka == null
                        ? RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), redis.uri(),
                                false, settings)
                        : RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), redis.uri(),
                                kafka.bootstrapServers(), settings)) {
            limitsOneCustomerAcrossOrders(service);
            manyOrdersOfOneCustomerAtOnceHoldTheLimit(service);
            theLimitHoldsAcrossAFallbackAndTheWayBack(service, redis);
        }
    }

    private static void limitsOneCustomerAcrossOrders(RunningService service) {
        StockGuardClient client = service.client();
        String sku = Ids.sku("limit");
        client.putSku(sku, 100, 4);
        Response limited = client.limitPerCustomer(sku, 100, 2);
        assertThat(limited.status()).as("%s", limited.body()).isEqualTo(200);
        assertThat(client.sku(sku).number("limitPerCustomer")).isEqualTo(2);
        String alice = Ids.order("alice");
        String bob = Ids.order("bob");

        String first = Ids.order("limit-a1");
        Response reserved = client.reserveFor(alice, first, 60, new Line(sku, 1));
        assertThat(reserved.status()).as("%s", reserved.body()).isEqualTo(201);
        assertThat(reserved.text("customerId")).isEqualTo(alice);
        assertThat(client.reservation(first).text("customerId")).isEqualTo(alice);
        String second = Ids.order("limit-a2");
        assertThat(client.reserveFor(alice, second, 60, new Line(sku, 1)).status()).isEqualTo(201);
        Response third = client.reserveFor(alice, Ids.order("limit-a3"), 60, new Line(sku, 1));
        assertThat(third.status()).isEqualTo(409);
        assertThat(third.code()).isEqualTo("LIMIT_EXCEEDED");
        assertThat(third.number("limit")).isEqualTo(2);
        assertThat(third.number("held")).isEqualTo(2);
        assertThat(third.text("customerId")).isEqualTo(alice);

        // Another customer, and an order for nobody named, are not held back by Alice's count.
        assertThat(client.reserveFor(bob, Ids.order("limit-b1"), 60, new Line(sku, 2)).status()).isEqualTo(201);
        assertThat(client.reserve(Ids.order("limit-anon"), 60, new Line(sku, 5)).status()).isEqualTo(201);
        assertCounters(client, sku, 91, 9, 0);

        // Idempotent with the order: a retry is the same reservation, counted once; the same order
        // id for someone else is another request.
        Response retry = client.reserveFor(alice, first, 60, new Line(sku, 1));
        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.body().get("replayed").asBoolean()).isTrue();
        assertThat(client.reserveFor(bob, first, 60, new Line(sku, 1)).code()).isEqualTo("IDEMPOTENCY_CONFLICT");

        // Bad input: a clear 400 and nothing moved.
        Response badCustomer = client.reserveFor("no spaces allowed", Ids.order("limit-bad"), 60, new Line(sku, 1));
        assertThat(badCustomer.status()).isEqualTo(400);
        assertThat(badCustomer.body().get("errors").get(0).get("field").asString()).isEqualTo("customerId");
        assertThat(client.limitPerCustomer(sku, 100, -1).status()).isEqualTo(400);
        assertCounters(client, sku, 91, 9, 0);

        // A cancel gives the units back; a sale keeps counting.
        assertThat(client.cancel(first).status()).isEqualTo(200);
        String fourth = Ids.order("limit-a4");
        assertThat(client.reserveFor(alice, fourth, 60, new Line(sku, 1)).status()).isEqualTo(201);
        assertThat(client.confirm(second).status()).isEqualTo(200);
        assertThat(client.reserveFor(alice, Ids.order("limit-a5"), 60, new Line(sku, 1)).number("held"))
                .isEqualTo(2);

        // An order refused on another line takes nothing from the customer's count either.
        String soldOut = Ids.sku("zz-sold-out");
        client.putSku(soldOut, 0);
        String dan = Ids.order("dan");
        assertThat(client.reserveFor(dan, Ids.order("limit-d1"), 60, new Line(sku, 2), new Line(soldOut, 1)).code())
                .isEqualTo("INSUFFICIENT_STOCK");
        assertThat(client.reserveFor(dan, Ids.order("limit-d2"), 60, new Line(sku, 2)).status()).isEqualTo(201);

        // An expiry gives them back too.
        String carol = Ids.order("carol");
        assertThat(client.reserveFor(carol, Ids.order("limit-c1"), 1, new Line(sku, 2)).status()).isEqualTo(201);
        assertThat(client.reserveFor(carol, Ids.order("limit-c2"), 60, new Line(sku, 1)).code())
                .isEqualTo("LIMIT_EXCEEDED");
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> client.reserveFor(carol, Ids.order("limit-c3"), 60, new Line(sku, 2)).status() == 201);

        // A lower limit refuses those at it; no limit lets everyone buy.
        assertThat(client.limitPerCustomer(sku, 100, 1).status()).isEqualTo(200);
        assertThat(client.reserveFor(bob, Ids.order("limit-b2"), 60, new Line(sku, 1)).code())
                .isEqualTo("LIMIT_EXCEEDED");
        assertThat(client.limitPerCustomer(sku, 100, 0).status()).isEqualTo(200);
        assertThat(client.sku(sku).body().get("limitPerCustomer").isNull()).isTrue();
        assertThat(client.reserveFor(bob, Ids.order("limit-b3"), 60, new Line(sku, 3)).status()).isEqualTo(201);

        service.awaitJournalApplied(sku);
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        assertThat(held(service, sku, alice)).isEqualTo(2);
        assertThat(held(service, sku, bob)).isEqualTo(5);
        assertThat(held(service, sku, carol)).isEqualTo(2);
        assertThat(held(service, sku, dan)).isEqualTo(2);
    }

    /** 64 orders of one customer at once, limit 2: exactly 2 units held, whatever the interleaving. */
    private static void manyOrdersOfOneCustomerAtOnceHoldTheLimit(RunningService service) throws Exception {
        StockGuardClient client = service.client();
        String sku = Ids.sku("limit-race");
        client.putSku(sku, 1_000, 8);
        assertThat(client.limitPerCustomer(sku, 1_000, 2).status()).isEqualTo(200);
        String scalper = Ids.order("scalper");
        int racers = 64;
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        List<Response> answers = new ArrayList<>();
        try {
            List<Callable<Response>> asks = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                String order = Ids.order("scalper-" + i);
                asks.add(() -> client.reserveFor(scalper, order, 60, new Line(sku, 1)));
            }
            for (Future<Response> answer : pool.invokeAll(asks)) {
                answers.add(answer.get());
            }
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(answers.stream().filter(a -> a.status() == 201).count())
                .as("answers %s", answers.stream().map(Response::body).toList()).isEqualTo(2);
        for (Response answer : answers) {
            if (answer.status() != 201) {
                assertThat(answer.code()).as("%s", answer.body()).isEqualTo("LIMIT_EXCEEDED");
            }
        }
        assertCounters(client, sku, 998, 2, 0);
        service.awaitJournalApplied(sku);
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        assertThat(held(service, sku, scalper)).isEqualTo(2);
    }

    /**
     * What a customer holds on the hot store counts when the database serves the SKU, and what they
     * reserved on the database path counts when Redis serves it again.
     */
    private static void theLimitHoldsAcrossAFallbackAndTheWayBack(RunningService service, RedisServer redis) {
        StockGuardClient client = service.client();
        String sku = Ids.sku("limit-fallback");
        client.putSku(sku, 50);
        assertThat(client.limitPerCustomer(sku, 50, 2).status()).isEqualTo(200);
        String dave = Ids.order("dave");
        String onHot = Ids.order("limit-hot");
        assertThat(client.reserveFor(dave, onHot, 300, new Line(sku, 1)).status()).isEqualTo(201);
        assertThat(owner(service, sku)).isEqualTo("HOT");

        redis.kill();
        Response onDatabase = RedisOutage.awaitAnswer(() -> client.reserveFor(dave, Ids.order("limit-db"), 300, new Line(sku, 1)));
        assertThat(onDatabase.status()).as("%s", onDatabase.body()).isEqualTo(201);
        assertThat(owner(service, sku)).isEqualTo("DATABASE");
        Response overOnDatabase = client.reserveFor(dave, Ids.order("limit-db-over"), 300, new Line(sku, 1));
        assertThat(overOnDatabase.code()).as("%s", overOnDatabase.body()).isEqualTo("LIMIT_EXCEEDED");
        assertThat(overOnDatabase.number("held")).isEqualTo(2);

        redis.restart();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            client.reserve(Ids.order("limit-back"), 300, new Line(sku, 1));
            return "HOT".equals(owner(service, sku));
        });
        Response overOnHot = RedisOutage.awaitAnswer(() -> client.reserveFor(dave, Ids.order("limit-hot-over"), 300,
                new Line(sku, 1)));
        assertThat(overOnHot.code()).as("%s", overOnHot.body()).isEqualTo("LIMIT_EXCEEDED");
        assertThat(overOnHot.number("held")).isEqualTo(2);
        // The order reserved on the first hot store, cancelled on the second, frees its unit there.
        assertThat(RedisOutage.awaitAnswer(() -> client.cancel(onHot)).status()).isEqualTo(200);
        Response again = RedisOutage.awaitAnswer(() -> client.reserveFor(dave, Ids.order("limit-hot-again"), 300,
                new Line(sku, 1)));
        assertThat(again.status()).as("%s", again.body()).isEqualTo(201);
        assertThat(client.reserveFor(dave, Ids.order("limit-hot-last"), 300, new Line(sku, 1)).code())
                .isEqualTo("LIMIT_EXCEEDED");

        service.awaitJournalApplied(sku);
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        assertThat(held(service, sku, dave)).isEqualTo(2);
    }

    private static long held(RunningService service, String sku, String customer) {
        List<Long> units = service.jdbc().queryForList("SELECT units FROM customer_hold WHERE sku_id = ? "
                + "AND customer_id = ?", Long.class, sku, customer);
        return units.isEmpty() ? 0 : units.getFirst();
    }

    private static String owner(RunningService service, String sku) {
        return service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?", String.class, sku);
    }
}
