package io.stockguard.reservation;

import static io.stockguard.reservation.ReservationApiIT.assertCounters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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
 * A held order's hold extended once, on every tier: within the rules (held, not ended, once, never
 * past hold-max), idempotent, journaled, honoured by the expiry sweeper, safe when many requests
 * race, and kept across a Redis fallback to the database and back.
 */
class HoldExtensionIT {

    private static final Map<String, String> SETTINGS = Map.of(
            "stockguard.reservation.extension.hold-max", "1h",
            "stockguard.reservation.expiry-sweep-interval", "200ms");

    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void databaseTier(TestDatabase.Kind kind) throws Exception {
        try (RunningService service = RunningService.start(TestDatabase.fresh(kind), SETTINGS)) {
            extendsOnceWithinTheRules(service);
            theSweeperHonoursTheNewEnd(service);
            racingExtensionsExtendOnce(service);
        }
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
            extendsOnceWithinTheRules(service);
            theSweeperHonoursTheNewEnd(service);
            racingExtensionsExtendOnce(service);
            theExtensionSurvivesAFallbackAndTheWayBack(service, redis);
        }
    }

    private static void extendsOnceWithinTheRules(RunningService service) {
        StockGuardClient client = service.client();
        String sku = Ids.sku("ext");
        String other = Ids.sku("ext-other");
        client.putSku(sku, 10, 2);
        client.putSku(other, 5);
        String order = Ids.order("ext");
        Response reserved = client.reserve(order, 60, new Line(sku, 2), new Line(other, 1));
        assertThat(reserved.status()).isEqualTo(201);
        Instant created = Instant.parse(reserved.text("createdAt"));

        Response extended = client.extend(order, 600);
        assertThat(extended.status()).as("%s", extended.body()).isEqualTo(200);
        assertThat(extended.text("state")).isEqualTo("RESERVED");
        assertThat(extended.body().get("replayed").asBoolean()).isFalse();
        assertThat(extended.number("extensions")).isEqualTo(1);
        Instant ends = Instant.parse(extended.text("expiresAt"));
        assertThat(ends).isCloseTo(created.plusSeconds(600), within(1, ChronoUnit.MILLIS));

        // A retry, or a request for less than the order holds already: the same answer, nothing changed.
        for (long ttl : new long[] {600, 300, 60}) {
            Response again = client.extend(order, ttl);
            assertThat(again.status()).as("ttl %d: %s", ttl, again.body()).isEqualTo(200);
            assertThat(again.body().get("replayed").asBoolean()).isTrue();
            assertThat(Instant.parse(again.text("expiresAt"))).isEqualTo(ends);
            assertThat(again.number("extensions")).isEqualTo(1);
        }
        Response second = client.extend(order, 900);
        assertThat(second.status()).isEqualTo(409);
        assertThat(second.code()).isEqualTo("EXTENSION_LIMIT");
        assertThat(Instant.parse(second.text("expiresAt"))).isEqualTo(ends);

        assertThat(client.extend(order, 7_200).code()).as("past hold-max").isEqualTo("INVALID_REQUEST");
        assertThat(client.extend(order, 0).code()).isEqualTo("INVALID_REQUEST");
        Response noTtl = client.send("POST", "/api/v1/reservations/" + order + "/extend", Map.of());
        assertThat(noTtl.status()).isEqualTo(400);
        assertThat(noTtl.body().get("errors").get(0).get("field").asString()).isEqualTo("ttlSeconds");
        assertThat(client.extend(Ids.order("ext-nobody"), 600).code()).isEqualTo("UNKNOWN_ORDER");

        Response stored = client.reservation(order);
        assertThat(Instant.parse(stored.text("expiresAt"))).isEqualTo(ends);
        assertThat(stored.number("extensions")).isEqualTo(1);
        assertCounters(client, sku, 8, 2, 0);
        assertCounters(client, other, 4, 1, 0);

        service.awaitJournalApplied(sku, other);
        assertThat(service.jdbc().queryForObject("SELECT extensions FROM reservation WHERE order_id = ?",
                Integer.class, order)).isEqualTo(1);
        assertThat(service.jdbc().queryForList("SELECT sku_id FROM stock_event WHERE order_id = ? AND op = 'EXTEND' "
                + "AND delta_available = 0 AND delta_reserved = 0 AND delta_sold = 0", String.class, order))
                .as("one EXTEND per line, moving nothing").containsExactlyInAnyOrder(sku, other);

        String trace = service.admin().send("GET", "/api/v1/admin/orders/" + order + "/trace", null).raw().body();
        assertThat(trace).contains("\"extensions\":1").contains("EXTEND: the hold of " + sku + " now ends at " + ends);

        assertThat(client.confirm(order).status()).isEqualTo(200);
        assertThat(client.extend(order, 900).code()).isEqualTo("ORDER_CONFIRMED");
        String cancelled = Ids.order("ext-cancelled");
        assertThat(client.reserve(cancelled, 60, new Line(sku, 1)).status()).isEqualTo(201);
        assertThat(client.cancel(cancelled).status()).isEqualTo(200);
        assertThat(client.extend(cancelled, 900).code()).isEqualTo("ORDER_CANCELLED");
        assertCounters(client, sku, 8, 0, 2);

        service.awaitJournalApplied(sku, other);
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), other);
    }

    /** The hold ends when the extension says, not when the reservation first said. */
    private static void theSweeperHonoursTheNewEnd(RunningService service) {
        StockGuardClient client = service.client();
        String sku = Ids.sku("ext-sweep");
        client.putSku(sku, 5);
        String order = Ids.order("ext-sweep");
        Response reserved = client.reserve(order, 2, new Line(sku, 1));
        assertThat(reserved.status()).isEqualTo(201);
        Instant created = Instant.parse(reserved.text("createdAt"));
        assertThat(client.extend(order, 6).status()).isEqualTo(200);

        Instant firstEnd = created.plusSeconds(2);
        // Past the first end, with several sweeps (every 200 ms) since: still held.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> Instant.now().isAfter(firstEnd.plusSeconds(2)));
        assertThat(client.reservation(order).text("state")).isEqualTo("RESERVED");
        assertCounters(client, sku, 4, 1, 0);

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> "EXPIRED".equals(client.reservation(order).text("state")));
        assertThat(Instant.now()).isAfter(created.plusSeconds(6));
        assertCounters(client, sku, 5, 0, 0);
        assertThat(client.extend(order, 60).code()).isEqualTo("ORDER_EXPIRED");
    }

    /** Many extensions of one order at once: one extends it, the others replay it or are refused. */
    private static void racingExtensionsExtendOnce(RunningService service) throws Exception {
        StockGuardClient client = service.client();
        String sku = Ids.sku("ext-race");
        client.putSku(sku, 5, 2);
        String order = Ids.order("ext-race");
        Response reserved = client.reserve(order, 60, new Line(sku, 1));
        Instant created = Instant.parse(reserved.text("createdAt"));
        int racers = 16;
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        List<Response> answers = new ArrayList<>();
        try {
            List<Callable<Response>> asks = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                long ttl = 100 + 10L * i;
                asks.add(() -> client.extend(order, ttl));
            }
            for (Future<Response> answer : pool.invokeAll(asks)) {
                answers.add(answer.get());
            }
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        List<Response> extendedNow = answers.stream()
                .filter(a -> a.status() == 200 && !a.body().get("replayed").asBoolean()).toList();
        assertThat(extendedNow).as("answers %s", answers.stream().map(Response::body).toList()).hasSize(1);
        Instant ends = Instant.parse(extendedNow.getFirst().text("expiresAt"));
        for (Response answer : answers) {
            assertThat(answer.status()).as("%s", answer.body()).isIn(200, 409);
            if (answer.status() == 409) {
                assertThat(answer.code()).isEqualTo("EXTENSION_LIMIT");
                assertThat(Instant.parse(answer.text("expiresAt"))).isEqualTo(ends);
            } else {
                assertThat(Instant.parse(answer.text("expiresAt"))).isEqualTo(ends);
            }
        }
        assertThat(Duration.between(created, ends).toSeconds()).isBetween(100L, 250L);
        assertThat(Instant.parse(client.reservation(order).text("expiresAt"))).isEqualTo(ends);
        service.awaitJournalApplied(sku);
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM stock_event WHERE order_id = ? AND op = 'EXTEND'",
                Integer.class, order)).isEqualTo(1);
        assertThat(service.jdbc().queryForObject("SELECT extensions FROM reservation WHERE order_id = ?",
                Integer.class, order)).isEqualTo(1);
    }

    /**
     * An order extended on the hot store is still extended when the database serves it, an order
     * extended by the database path is known to have been when Redis serves it again: neither is
     * extended twice, and both keep their new end.
     */
    private static void theExtensionSurvivesAFallbackAndTheWayBack(RunningService service, RedisServer redis) {
        StockGuardClient client = service.client();
        String sku = Ids.sku("ext-fallback");
        client.putSku(sku, 10);
        String onHot = Ids.order("ext-hot");
        String onDatabase = Ids.order("ext-db");
        Response first = client.reserve(onHot, 60, new Line(sku, 1));
        Response second = client.reserve(onDatabase, 60, new Line(sku, 1));
        assertThat(first.status()).isEqualTo(201);
        assertThat(second.status()).isEqualTo(201);
        assertThat(service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?", String.class, sku))
                .isEqualTo("HOT");
        Instant hotEnds = Instant.parse(client.extend(onHot, 600).text("expiresAt"));

        redis.kill();
        Response extendedByDatabase = RedisOutage.awaitAnswer(() -> client.extend(onDatabase, 900));
        assertThat(extendedByDatabase.status()).as("%s", extendedByDatabase.body()).isEqualTo(200);
        Instant databaseEnds = Instant.parse(extendedByDatabase.text("expiresAt"));
        assertThat(databaseEnds).isCloseTo(Instant.parse(second.text("createdAt")).plusSeconds(900),
                within(1, ChronoUnit.MILLIS));
        Response onHotNow = RedisOutage.awaitAnswer(() -> client.extend(onHot, 900));
        assertThat(onHotNow.code()).as("%s", onHotNow.body()).isEqualTo("EXTENSION_LIMIT");
        assertThat(Instant.parse(onHotNow.text("expiresAt"))).isEqualTo(hotEnds);
        assertThat(service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?", String.class, sku))
                .isEqualTo("DATABASE");

        redis.restart();
        // Served by Redis again once a new sale lands there.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            client.reserve(Ids.order("ext-back"), 60, new Line(sku, 1));
            return "HOT".equals(service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?", String.class,
                    sku));
        });
        for (Map.Entry<String, Instant> order : Map.of(onHot, hotEnds, onDatabase, databaseEnds).entrySet()) {
            Response again = RedisOutage.awaitAnswer(() -> client.extend(order.getKey(), 1_800));
            assertThat(again.code()).as("%s: %s", order.getKey(), again.body()).isEqualTo("EXTENSION_LIMIT");
            assertThat(Instant.parse(again.text("expiresAt"))).isEqualTo(order.getValue());
            Response stored = client.reservation(order.getKey());
            assertThat(stored.text("state")).isEqualTo("RESERVED");
            assertThat(Instant.parse(stored.text("expiresAt"))).isEqualTo(order.getValue());
        }
        service.awaitJournalApplied(sku);
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM stock_event WHERE order_id IN (?, ?) "
                + "AND op = 'EXTEND'", Integer.class, onHot, onDatabase)).isEqualTo(2);
    }
}
