package io.stockguard.stocklevel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.ConsoleSession;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stock-level events reach a real HTTP receiver, signed: a sale that runs low and sells out, a
 * cancel that brings the SKU back, a restock; a SKU that flickers around 0 does not storm the
 * receiver; a receiver down for 10 s loses nothing; a delivery repeated carries the same event id.
 */
class StockLevelEventsIT {

    private static final String SECRET = "receiver-secret-0123456789";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static Map<String, String> settings(String url) {
        return Map.of("stockguard.stock-levels.sample-interval", "100ms",
                "stockguard.stock-levels.back-in-stock-after", "1s",
                "stockguard.stock-levels.retry-first", "200ms",
                "stockguard.stock-levels.retry-max", "1s",
                "stockguard.stock-levels.webhooks[0].name", "search",
                "stockguard.stock-levels.webhooks[0].url", url,
                "stockguard.stock-levels.webhooks[0].secret", SECRET);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void databaseTier(TestDatabase.Kind kind) {
        int port = RedisServer.freePort();
        Map<String, String> settings = new java.util.HashMap<>(settings(WebhookReceiver.url(port)));
        settings.putAll(ConsolePeople.settings());
        try (WebhookReceiver receiver = WebhookReceiver.start(port, SECRET);
                RunningService service = RunningService.start(TestDatabase.fresh(kind), settings)) {
            String sku = aSaleRunsLowSellsOutAndComesBack(service, receiver, 1);
            ConsoleSession operator = new ConsoleSession(service.baseUrl());
            assertThat(operator.login(ConsolePeople.OPERATOR).location()).endsWith("/console");
            String page = operator.get("/console/skus/" + sku).body();
            assertThat(page).contains("data-field=\"level\">LOW_STOCK<", "data-field=\"event\">SOLD_OUT<",
                    "data-field=\"event\">BACK_IN_STOCK<");
            aSkuFlickeringAroundZeroIsReportedOnce(service, receiver);
            aRepeatedDeliveryCarriesTheSameEventId(service, receiver);
            receiver.assertAllSigned();
        }
    }

    @Test
    void standardTier() {
        int port = RedisServer.freePort();
        try (RedisServer redis = RedisServer.start();
                WebhookReceiver receiver = WebhookReceiver.start(port, SECRET);
                RunningService service = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        redis.uri(), false, settings(receiver.url()))) {
            aSaleRunsLowSellsOutAndComesBack(service, receiver, 1);
            aSkuFlickeringAroundZeroIsReportedOnce(service, receiver);
            receiver.assertAllSigned();
        }
    }

    /** The full tier also publishes every event on the public topic, keyed by SKU, with the same body. */
    @Test
    void fullTierWebhooksAndTopic() {
        int port = RedisServer.freePort();
        try (RedisServer redis = RedisServer.start();
                KafkaCluster kafka = KafkaCluster.single();
                WebhookReceiver receiver = WebhookReceiver.start(port, SECRET);
                RunningService service = RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        redis.uri(), kafka.bootstrapServers(), settings(receiver.url()))) {
            aSaleRunsLowSellsOutAndComesBack(service, receiver, 2);
            receiver.assertAllSigned();
            List<WebhookReceiver.Delivery> received = receiver.deliveries();
            String sku = received.getFirst().skuId();
            List<JsonNode> published = topic(kafka, "stockguard.stock-levels", sku, 4);
            assertThat(published).extracting(record -> record.get("type").asString())
                    .containsExactly("LOW_STOCK", "SOLD_OUT", "BACK_IN_STOCK", "LOW_STOCK");
            assertThat(published).extracting(record -> record.get("eventId").asString())
                    .containsExactlyElementsOf(received.stream().filter(d -> d.skuId().equals(sku))
                            .map(WebhookReceiver.Delivery::eventId).distinct().toList());
            assertThat(published).allSatisfy(record ->
                    assertThat(record.get("schema").asString()).isEqualTo("stockguard.stock-level/1"));
        }
    }

    /** The topic's records of one SKU, in order, once {@code count} of them are there. */
    private static List<JsonNode> topic(KafkaCluster kafka, String topic, String sku, int count) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "stock-levels-it-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<JsonNode> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10)).until(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (sku.equals(record.key())) {
                        records.add(JSON.readTree(record.value()));
                    }
                }
                return records.size() >= count;
            });
        }
        return records;
    }

    /**
     * A webhook subscribed by the admin API gets every event from then on, signed with its secret
     * (shown once, when it is made); removed, it gets no more. Only admins subscribe, and bad
     * subscriptions are refused with the field that is wrong.
     */
    @Test
    void aWebhookSubscribedByTheApiGetsTheEventsFromThenOn() {
        int port = RedisServer.freePort();
        Map<String, String> settings = new java.util.HashMap<>(settings(WebhookReceiver.url(port)));
        settings.keySet().removeIf(key -> key.contains(".webhooks["));
        try (WebhookReceiver receiver = WebhookReceiver.start(port, SECRET);
                RunningService service = RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        settings)) {
            StockGuardClient admin = service.admin();
            String hooks = "/api/v1/admin/stock-levels/webhooks";
            StockGuardClient.Response made = admin.send("POST", hooks,
                    StockGuardClient.object("name", "marketing", "url", receiver.url(), "secret", SECRET));
            assertThat(made.status()).as("%s", made.body()).isEqualTo(201);
            assertThat(made.text("secret")).isEqualTo(SECRET);
            assertThat(made.raw().headers().firstValue("Location")).hasValue(hooks + "/marketing");
            StockGuardClient.Response generated = admin.send("POST", hooks,
                    StockGuardClient.object("name", "search-2", "url", "https://search.example/hook?token=abc"));
            assertThat(generated.status()).isEqualTo(201);
            assertThat(generated.text("secret")).matches("[0-9a-f]{64}");

            StockGuardClient.Response listed = admin.send("GET", hooks, null);
            assertThat(listed.status()).isEqualTo(200);
            assertThat(listed.raw().body()).doesNotContain(SECRET).doesNotContain(generated.text("secret"))
                    .doesNotContain("token=abc").contains("\"source\":\"api\"")
                    .contains("\"url\":\"https://search.example/***\"");

            assertThat(admin.send("POST", hooks, StockGuardClient.object("name", "marketing", "url", receiver.url()))
                    .code()).isEqualTo("NAME_TAKEN");
            StockGuardClient.Response badUrl = admin.send("POST", hooks,
                    StockGuardClient.object("name", "ftp-hook", "url", "ftp://example.com/x"));
            assertThat(badUrl.status()).isEqualTo(400);
            assertThat(badUrl.body().get("errors").get(0).get("field").asString()).isEqualTo("url");
            assertThat(admin.send("POST", hooks, StockGuardClient.object("name", "short", "url", receiver.url(),
                    "secret", "too-short")).body().get("errors").get(0).get("field").asString()).isEqualTo("secret");
            assertThat(service.client().send("POST", hooks, StockGuardClient.object("name", "mine", "url",
                    receiver.url())).status()).as("an order-service key").isEqualTo(403);
            assertThat(admin.send("DELETE", hooks + "/search-2", null).status()).isEqualTo(204);
            assertThat(admin.send("DELETE", hooks + "/search-2", null).code()).isEqualTo("UNKNOWN_WEBHOOK");
            assertThat(service.jdbc().queryForList("SELECT action FROM audit_log WHERE target LIKE 'webhook:%' "
                    + "ORDER BY id", String.class))
                    .containsExactly("WEBHOOK_SUBSCRIBE", "WEBHOOK_SUBSCRIBE", "WEBHOOK_UNSUBSCRIBE");

            StockGuardClient client = service.client();
            String sku = Ids.sku("level-subscribed");
            assertThat(client.putSku(sku, 1).status()).isEqualTo(201);
            awaitBaseline(service, sku);
            String order = Ids.order("level-subscribed");
            assertThat(client.reserve(order, new Line(sku, 1)).status()).isEqualTo(201);
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                    .until(() -> receiver.typesOf(sku).contains("SOLD_OUT"));
            receiver.assertAllSigned();

            assertThat(admin.send("DELETE", hooks + "/marketing", null).status()).isEqualTo(204);
            assertThat(client.cancel(order).status()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
                JsonNode newest = admin.send("GET", "/api/v1/admin/stock-levels/events?sku=" + sku + "&limit=1", null)
                        .body().get(0);
                return newest != null && newest.get("type").asString().equals("BACK_IN_STOCK");
            });
            JsonNode back = admin.send("GET", "/api/v1/admin/stock-levels/events?sku=" + sku + "&limit=1", null)
                    .body().get(0);
            assertThat(back.get("delivered").asInt() + back.get("pending").asInt() + back.get("gaveUp").asInt())
                    .as("no subscriber left to deliver to").isZero();
            assertThat(receiver.typesOf(sku)).containsExactly("SOLD_OUT");
        }
    }

    @Test
    void aReceiverDownForTenSecondsLosesNothing() {
        int port = RedisServer.freePort();
        try (RunningService service = RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                settings(WebhookReceiver.url(port)))) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("level-down");
            assertThat(client.putSku(sku, 1).status()).isEqualTo(201);
            awaitBaseline(service, sku);
            assertThat(client.reserve(Ids.order("level-down"), new Line(sku, 1)).status()).isEqualTo(201);
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .until(() -> attempts(service, sku) >= 2);
            Instant down = Instant.now();
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                    .until(() -> Instant.now().isAfter(down.plusSeconds(10)));
            JsonNode pending = events(service, sku).get(0);
            assertThat(pending.get("pending").asInt()).as("still pending after 10 s down").isEqualTo(1);

            try (WebhookReceiver receiver = WebhookReceiver.start(port, SECRET)) {
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                        .until(() -> receiver.typesOf(sku).contains("SOLD_OUT"));
                assertThat(receiver.typesOf(sku)).containsExactly("SOLD_OUT");
                receiver.assertAllSigned();
                await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                        .until(() -> events(service, sku).get(0).get("delivered").asInt() == 1);
            }
        }
    }

    /** Returns the SKU it sold. */
    private static String aSaleRunsLowSellsOutAndComesBack(RunningService service, WebhookReceiver receiver,
            int sinks) {
        StockGuardClient client = service.client();
        String sku = Ids.sku("level");
        assertThat(client.send("PUT", "/api/v1/skus/" + sku, Map.of("total", 3, "safetyStock", 1)).status())
                .isEqualTo(201);
        awaitBaseline(service, sku);
        assertThat(client.reserve(Ids.order("level-a"), new Line(sku, 2)).status()).isEqualTo(201);
        awaitTypes(receiver, sku, "LOW_STOCK");
        String last = Ids.order("level-b");
        assertThat(client.reserve(last, new Line(sku, 1)).status()).isEqualTo(201);
        awaitTypes(receiver, sku, "LOW_STOCK", "SOLD_OUT");
        assertThat(client.cancel(last).status()).isEqualTo(200);
        awaitTypes(receiver, sku, "LOW_STOCK", "SOLD_OUT", "BACK_IN_STOCK");
        assertThat(client.restock(sku, 10).status()).isEqualTo(200);
        // In stock again, silently: a later fall to the safety stock is reported anew.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> "IN_STOCK".equals(
                service.jdbc().queryForObject("SELECT level FROM stock_level WHERE sku_id = ?", String.class, sku)));
        assertThat(client.reserve(Ids.order("level-c"), new Line(sku, 10)).status()).isEqualTo(201);
        awaitTypes(receiver, sku, "LOW_STOCK", "SOLD_OUT", "BACK_IN_STOCK", "LOW_STOCK");

        List<WebhookReceiver.Delivery> soldOut = receiver.deliveries().stream()
                .filter(d -> d.skuId().equals(sku) && d.type().equals("SOLD_OUT")).toList();
        assertThat(soldOut.getFirst().body().get("available").asLong()).isZero();
        assertThat(soldOut.getFirst().body().get("total").asLong()).isEqualTo(3);
        String trace = soldOut.getFirst().body().get("traceId").asString();
        assertThat(trace).hasSize(32);
        assertThat(soldOut.getFirst().traceparent()).as("the W3C traceparent of the change behind the event")
                .matches("00-" + trace + "-[0-9a-f]{16}-00");
        JsonNode recorded = events(service, sku);
        assertThat(recorded).hasSize(4);
        assertThat(recorded.get(0).get("type").asString()).as("newest first").isEqualTo("LOW_STOCK");
        // Every sink takes every event: the webhook, and in the full tier the public topic.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> events(service, sku).get(0).get("delivered").asInt() == sinks);
        return sku;
    }

    /** Units that come back and are sold again within back-in-stock-after are not news. */
    private static void aSkuFlickeringAroundZeroIsReportedOnce(RunningService service, WebhookReceiver receiver) {
        StockGuardClient client = service.client();
        String sku = Ids.sku("level-flicker");
        assertThat(client.putSku(sku, 1).status()).isEqualTo(201);
        awaitBaseline(service, sku);
        String holder = Ids.order("flicker");
        assertThat(client.reserve(holder, new Line(sku, 1)).status()).isEqualTo(201);
        awaitTypes(receiver, sku, "SOLD_OUT");
        for (int i = 0; i < 5; i++) {
            assertThat(client.cancel(holder).status()).isEqualTo(200);
            holder = Ids.order("flicker");
            assertThat(client.reserve(holder, new Line(sku, 1)).status()).isEqualTo(201);
        }
        assertThat(client.cancel(holder).status()).isEqualTo(200);
        awaitTypes(receiver, sku, "SOLD_OUT", "BACK_IN_STOCK");
    }

    private static void aRepeatedDeliveryCarriesTheSameEventId(RunningService service, WebhookReceiver receiver) {
        StockGuardClient client = service.client();
        String sku = Ids.sku("level-repeat");
        assertThat(client.putSku(sku, 1).status()).isEqualTo(201);
        awaitBaseline(service, sku);
        receiver.failNext(1);
        assertThat(client.reserve(Ids.order("repeat"), new Line(sku, 1)).status()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> receiver.deliveries()
                .stream().filter(d -> d.skuId().equals(sku)).count() >= 2);
        List<WebhookReceiver.Delivery> both = receiver.deliveries().stream().filter(d -> d.skuId().equals(sku)).toList();
        assertThat(both.get(0).eventId()).isEqualTo(both.get(1).eventId());
        assertThat(receiver.typesOf(sku)).containsExactly("SOLD_OUT");
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> events(service, sku).get(0).get("delivered").asInt() == 1);
    }

    private static void awaitTypes(WebhookReceiver receiver, String sku, String... types) {
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                .until(() -> receiver.typesOf(sku).size() >= types.length);
        assertThat(receiver.typesOf(sku)).containsExactly(types);
    }

    /** The watcher has seen the SKU (its level is recorded): changes from now on are reported. */
    private static void awaitBaseline(RunningService service, String sku) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> service.jdbc()
                .queryForObject("SELECT COUNT(*) FROM stock_level WHERE sku_id = ?", Integer.class, sku) == 1);
    }

    private static int attempts(RunningService service, String sku) {
        List<Integer> attempts = service.jdbc().queryForList("SELECT d.attempts FROM stock_level_delivery d "
                + "JOIN stock_level_event e ON e.event_id = d.event_id WHERE e.sku_id = ?", Integer.class, sku);
        return attempts.isEmpty() ? 0 : attempts.getFirst();
    }

    private static JsonNode events(RunningService service, String sku) {
        return service.admin().send("GET", "/api/v1/admin/stock-levels/events?sku=" + sku, null).body();
    }
}
