package io.stockguard.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.stockguard.journal.EventDeadLettered;
import io.stockguard.journal.JournalBacklogChanged;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient.Response;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.TestDatabase;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Alerts reach real HTTP receivers in each provider's wire format, routed by level, deduplicated,
 * retried and marked failed, and a receiver that never answers delays neither the raiser nor the
 * other channels.
 */
class AlertingIT {

    private static final String FEISHU_SECRET = "feishu-secret-0123";
    private static final String DINGTALK_SECRET = "SECding-secret-0123";
    private static final String DINGTALK_TOKEN = "ding-token-0123";
    private static final String SLACK_PATH = "/slack/T000/B000/XXXX";
    private static final String SMS_TOKEN = "Bearer sms-token-0123";
    private static final List<String> SECRETS = List.of(FEISHU_SECRET, DINGTALK_SECRET, DINGTALK_TOKEN, SLACK_PATH,
            SMS_TOKEN, "phone-token-0123");
    private static final Set<String> CHAT = Set.of("feishu", "dingtalk", "slack", "hook", "broken", "stuck");
    private static final int SMS_LENGTH_MAX = 80;
    private static final Duration BOUND = Duration.ofSeconds(20);
    /**
     * How long the channel whose receiver never answers waits for an answer: with the retries and
     * the delivery deadline below, it holds each alert for the whole deadline (2 s, 2 s, then the
     * deadline cuts the third attempt), time enough for a busy machine to fill its queue behind it.
     */
    private static final Duration STUCK_CHANNEL_TIMEOUT = Duration.ofSeconds(2);
    /** The stuck channel's queue and the alert in its hand, each held for the delivery deadline. */
    private static final Duration STUCK_CHANNEL_IDLE_BOUND = Duration.ofSeconds(40);

    private static WebhookReceiverFixtures receivers;
    private static RunningService service;

    @BeforeAll
    static void start() {
        receivers = new WebhookReceiverFixtures();
        service = RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), settings());
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
        receivers.close();
    }

    private static Map<String, String> settings() {
        Map<String, String> settings = new HashMap<>();
        String[][] channels = {
                {"feishu", "FEISHU", "/feishu", "secret=" + FEISHU_SECRET},
                {"dingtalk", "DINGTALK", "/dingtalk?access_token=" + DINGTALK_TOKEN, "secret=" + DINGTALK_SECRET},
                {"slack", "SLACK", SLACK_PATH, "levels=INFO,WARN,THROTTLE,FREEZE"},
                {"hook", "WEBHOOK", "/webhook"},
                {"sms", "SMS", "/sms", "recipients=+8613800000000,+8613900000000", "headers[Authorization]=" + SMS_TOKEN},
                {"phone", "PHONE", "/phone", "recipients=+8613800000000", "headers[Authorization]=Bearer phone-token-0123"},
                {"broken", "WEBHOOK", "/failing"},
                {"stuck", "WEBHOOK", "/hanging", "timeout=" + STUCK_CHANNEL_TIMEOUT.toMillis() + "ms"},
                {"refusing", "FEISHU", "/refusing", "secret=refusing-secret", "levels=FREEZE"}};
        for (int i = 0; i < channels.length; i++) {
            String prefix = "stockguard.alerting.channels[" + i + "].";
            settings.put(prefix + "name", channels[i][0]);
            settings.put(prefix + "type", channels[i][1]);
            settings.put(prefix + "url", receivers.url(channels[i][2]));
            for (int j = 3; j < channels[i].length; j++) {
                String[] setting = channels[i][j].split("=", 2);
                settings.put(prefix + setting[0], setting[1]);
            }
        }
        settings.put("stockguard.alerting.retries", "2");
        settings.put("stockguard.alerting.retry-backoff", "20ms");
        settings.put("stockguard.alerting.delivery-deadline", "5s");
        settings.put("stockguard.alerting.queue-capacity", "3");
        settings.put("stockguard.alerting.sms-length-max", Integer.toString(SMS_LENGTH_MAX));
        settings.put("stockguard.alerting.rate-limit-per-sku-and-level.max", "100");
        settings.put("stockguard.alerting.instance", "it-instance");
        settings.put("stockguard.alerting.retention.max-age", "1h");
        settings.put("stockguard.alerting.retention.sweep-interval", "1s");
        return settings;
    }

    private static Alerts alerts() {
        return service.bean(Alerts.class);
    }

    /** The alert of the admin feed about this SKU, or null while it is not recorded. */
    private static JsonNode fed(String sku) {
        Response feed = service.admin().send("GET", "/api/v1/admin/alerts?limit=500", null);
        assertThat(feed.status()).isEqualTo(200);
        for (JsonNode alert : feed.body()) {
            if (sku.equals(alert.path("skuId").asString(null))) {
                return alert;
            }
        }
        return null;
    }

    private static Map<String, JsonNode> deliveries(JsonNode alert) {
        Map<String, JsonNode> byChannel = new HashMap<>();
        alert.get("deliveries").forEach(d -> byChannel.put(d.get("channel").asString(), d));
        return byChannel;
    }

    private static String status(String sku, String channel) {
        JsonNode alert = fed(sku);
        JsonNode delivery = alert == null ? null : deliveries(alert).get(channel);
        return delivery == null ? null : delivery.get("status").asString();
    }

    @Test
    void freezeReachesEveryChannelInItsProvidersSignedWireFormat() throws Exception {
        String sku = Ids.sku("alert-freeze");
        // Recent: alerts older than the retention (1 h here) are swept.
        Instant at = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        String detail = "drift 4.2% (42 units): hot store 958, database 1000, in flight 0. " + "x".repeat(200);
        alerts().raise(Alert.of(AlertLevel.FREEZE, "drift", sku, "Drift over 3%: selling stopped", detail, at));
        for (String path : List.of("/feishu", "/dingtalk", SLACK_PATH, "/webhook", "/sms", "/phone")) {
            await().atMost(BOUND).until(() -> !receivers.about(path.startsWith("/slack") ? "/slack" : path, sku).isEmpty());
        }
        long now = Instant.now().getEpochSecond();

        JsonNode feishu = receivers.about("/feishu", sku).getFirst().json();
        assertThat(feishu.get("msg_type").asString()).isEqualTo("text");
        assertThat(feishu.get("content").get("text").asString()).contains("[FREEZE]", "Drift over 3%", sku);
        String seconds = feishu.get("timestamp").asString();
        assertThat(Long.parseLong(seconds)).isBetween(now - 120, now + 5);
        assertThat(feishu.get("sign").asString()).isEqualTo(hmacBase64(seconds + "\n" + FEISHU_SECRET, ""));

        WebhookReceiverFixtures.Received ding = receivers.about("/dingtalk", sku).getFirst();
        Map<String, String> query = query(ding.query());
        assertThat(query.get("access_token")).isEqualTo(DINGTALK_TOKEN);
        assertThat(Long.parseLong(query.get("timestamp")) / 1000).isBetween(now - 120, now + 5);
        assertThat(query.get("sign"))
                .isEqualTo(hmacBase64(DINGTALK_SECRET, query.get("timestamp") + "\n" + DINGTALK_SECRET));
        assertThat(ding.json().get("msgtype").asString()).isEqualTo("text");
        assertThat(ding.json().get("text").get("content").asString()).contains("[FREEZE]", sku);

        assertThat(receivers.about("/slack", sku).getFirst().path()).isEqualTo("/slack");
        assertThat(receivers.about("/slack", sku).getFirst().json().get("text").asString()).contains("[FREEZE]", sku);

        JsonNode hook = receivers.about("/webhook", sku).getFirst().json();
        assertThat(hook.get("level").asString()).isEqualTo("FREEZE");
        assertThat(hook.get("kind").asString()).isEqualTo("drift");
        assertThat(hook.get("skuId").asString()).isEqualTo(sku);
        assertThat(hook.get("title").asString()).isEqualTo("Drift over 3%: selling stopped");
        assertThat(hook.get("detail").asString()).startsWith("drift 4.2% (42 units)");
        assertThat(Instant.parse(hook.get("at").asString())).isEqualTo(at);
        assertThat(hook.get("dedupeKey").asString()).isEqualTo("drift|" + sku + "|FREEZE");
        assertThat(hook.get("instance").asString()).isEqualTo("it-instance");

        WebhookReceiverFixtures.Received sms = receivers.about("/sms", sku).getFirst();
        assertThat(sms.headers().getFirst("Authorization")).isEqualTo(SMS_TOKEN);
        assertThat(sms.headers().getFirst("Content-Type")).startsWith("application/json");
        assertThat(sms.json().get("to").valueStream().map(JsonNode::asString).toList())
                .containsExactly("+8613800000000", "+8613900000000");
        String message = sms.json().get("message").asString();
        assertThat(message).hasSize(SMS_LENGTH_MAX).startsWith("[FREEZE] StockGuard: Drift over 3%").endsWith("…");
        assertThat(sms.json().get("level").asString()).isEqualTo("FREEZE");
        assertThat(sms.json().get("skuId").asString()).isEqualTo(sku);
        assertThat(receivers.about("/phone", sku).getFirst().json().get("to").valueStream()
                .map(JsonNode::asString).toList()).containsExactly("+8613800000000");

        await().atMost(BOUND).until(() -> "FAILED".equals(status(sku, "refusing")));
        assertThat(deliveries(fed(sku)).get("refusing").get("lastError").asString()).contains("code 19021");
        assertThat(receivers.about("/refusing", sku)).hasSize(3);
    }

    @Test
    void warnReachesChatOnlyAndThrottleAddsSms() {
        String warned = Ids.sku("alert-warn");
        String throttled = Ids.sku("alert-throttle");
        alerts().raise(Alert.of(AlertLevel.WARN, "drift", warned, "Drift 0.7%", "probe every 10 s", Instant.now()));
        alerts().raise(Alert.of(AlertLevel.THROTTLE, "drift", throttled, "Drift 1.8%", "throttled", Instant.now()));

        await().atMost(BOUND).until(() -> fed(warned) != null && fed(throttled) != null);
        assertThat(deliveries(fed(warned)).keySet()).isEqualTo(CHAT);
        Set<String> chatAndSms = new TreeSet<>(CHAT);
        chatAndSms.add("sms");
        assertThat(new TreeSet<>(deliveries(fed(throttled)).keySet())).isEqualTo(chatAndSms);

        await().atMost(BOUND).until(() -> !receivers.about("/sms", throttled).isEmpty()
                && "SENT".equals(status(warned, "feishu")) && "SENT".equals(status(throttled, "feishu")));
        assertThat(receivers.about("/feishu", warned)).hasSize(1);
        assertThat(receivers.about("/sms", warned)).isEmpty();
        assertThat(receivers.about("/phone", warned)).isEmpty();
        assertThat(receivers.about("/phone", throttled)).isEmpty();
    }

    @Test
    void aRepeatWithinTheDedupeWindowIsRecordedOnceAsSuppressedAndNotSentAgain() {
        String sku = Ids.sku("alert-dedupe");
        for (int i = 0; i < 3; i++) {
            alerts().raise(Alert.of(AlertLevel.WARN, "drift", sku, "Drift 0.6%", "reading " + i, Instant.now()));
        }
        await().atMost(BOUND).until(() -> fed(sku) != null && fed(sku).get("suppressedCount").asInt() == 2
                && "SENT".equals(status(sku, "slack")));
        List<JsonNode> all = new ArrayList<>();
        service.admin().send("GET", "/api/v1/admin/alerts?limit=500", null).body().forEach(all::add);
        assertThat(all).filteredOn(a -> sku.equals(a.path("skuId").asString(null))).hasSize(1);
        assertThat(fed(sku).get("detail").asString()).isEqualTo("reading 0");
        assertThat(receivers.about("/slack", sku)).hasSize(1);

        alerts().raise(Alert.of(AlertLevel.THROTTLE, "drift", sku, "Drift 1.2%", "a new level is a new alert",
                Instant.now()));
        await().atMost(BOUND).until(() -> receivers.about("/slack", sku).size() == 2);
    }

    @Test
    void aChannelAnswering500IsRetriedThenMarkedFailedInTheAdminFeedWithoutSecrets() {
        String sku = Ids.sku("alert-500");
        alerts().raise(Alert.of(AlertLevel.WARN, "drift", sku, "Drift 0.8%", "", Instant.now()));
        await().atMost(BOUND).until(() -> "FAILED".equals(status(sku, "broken")));
        JsonNode broken = deliveries(fed(sku)).get("broken");
        assertThat(broken.get("attempts").asInt()).isEqualTo(3);
        assertThat(broken.get("lastError").asString()).contains("HTTP 500").contains("provider down");
        assertThat(receivers.about("/failing", sku)).hasSize(3);
        assertThat(status(sku, "hook")).isEqualTo("SENT");

        String feed = service.admin().send("GET", "/api/v1/admin/alerts?limit=500", null).raw().body();
        String channels = service.admin().send("GET", "/api/v1/admin/alerts/channels", null).raw().body();
        for (String secret : SECRETS) {
            assertThat(feed).doesNotContain(secret);
            assertThat(channels).doesNotContain(secret);
        }
        assertThat(channels).contains("\"name\":\"feishu\"", "\"type\":\"DINGTALK\"", "127.0.0.1");
    }

    @Test
    void aHangingChannelDelaysNeitherTheRaiserNorTheOtherChannelsAndOverflowIsDropped() {
        // The stuck channel holds one alert in hand (it never gets an answer) and three in its queue;
        // the fifth has no room there, while every other channel keeps up and receives them all.
        // Alerts of other tests may still be queued for the stuck channel: wait until it has none,
        // so the first alert here is the one in its hand.
        await().atMost(STUCK_CHANNEL_IDLE_BOUND).until(() -> deliveriesTo("stuck").stream()
                .noneMatch(d -> d.get("status").asString().equals("PENDING")));
        List<String> skus = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            skus.add(Ids.sku("alert-hang"));
        }
        raiseWhileAChannelHangs(skus.getFirst());
        await().atMost(BOUND).until(() -> !receivers.about("/hanging", skus.getFirst()).isEmpty());
        // The first is in the stuck channel's hand for a whole delivery deadline from here. The next
        // three fill its queue; the healthy channels (the same queue capacity) may hold them all too.
        for (String sku : skus.subList(1, 4)) {
            raiseWhileAChannelHangs(sku);
        }
        awaitTheHealthyChannels(skus.subList(0, 4));
        String overflowing = skus.getLast();
        raiseWhileAChannelHangs(overflowing);
        // Statuses are written by the recorder's own thread, in the order they were recorded.
        await("the alert the stuck channel has no room for, recorded DROPPED").atMost(BOUND)
                .until(() -> "DROPPED".equals(status(overflowing, "stuck")));
        assertThat(skus.subList(1, 4)).as("queued behind the first, not dropped")
                .allSatisfy(sku -> assertThat(status(sku, "stuck")).isIn("PENDING", "FAILED"));
        awaitTheHealthyChannels(skus);
        // The last attempt waits what is left of the deadline, less than the channel's timeout.
        await().atMost(BOUND).until(() -> deliveriesTo("stuck").stream()
                .anyMatch(d -> d.get("status").asString().equals("FAILED")));
        assertThat(deliveriesTo("stuck")).filteredOn(d -> d.get("status").asString().equals("FAILED"))
                .allSatisfy(d -> assertThat(d.get("lastError").asString()).matches("no answer within \\d+ ms"));
        String prometheus = service.admin().send("GET", "/actuator/prometheus", null).raw().body();
        assertThat(prometheus).contains("stockguard_alerts_delivered_total{channel=\"stuck\",outcome=\"dropped\"}")
                .contains("stockguard_alerts_raised_total{level=\"FREEZE\"}");
    }

    private static void raiseWhileAChannelHangs(String sku) {
        long started = System.nanoTime();
        alerts().raise(Alert.of(AlertLevel.FREEZE, "regression", sku, "Hot store lost writes", "", Instant.now()));
        // A raiser that waited for the stuck channel would wait at least its timeout; how much less
        // than that a raise takes depends on how busy the machine is (182 ms was seen).
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("raise while a channel hangs")
                .isLessThan(STUCK_CHANNEL_TIMEOUT);
    }

    private static void awaitTheHealthyChannels(List<String> skus) {
        await().atMost(BOUND).until(() -> skus.stream().allMatch(sku -> !receivers.about("/webhook", sku).isEmpty()
                && !receivers.about("/phone", sku).isEmpty() && !receivers.about("/feishu", sku).isEmpty()
                && !receivers.about("/sms", sku).isEmpty()));
    }

    /** Every delivery to the channel the admin feed holds, of every alert. */
    private static List<JsonNode> deliveriesTo(String channel) {
        List<JsonNode> to = new ArrayList<>();
        service.admin().send("GET", "/api/v1/admin/alerts?limit=500", null).body()
                .forEach(a -> a.get("deliveries").forEach(d -> {
                    if (d.get("channel").asString().equals(channel)) {
                        to.add(d);
                    }
                }));
        return to;
    }

    @Test
    void theTestEndpointReachesEveryChannelWhateverItsLevelsAndIsAudited() {
        Response sent = service.admin().send("POST", "/api/v1/admin/alerts/test",
                StockGuardClient.object("reason", "checking the webhooks", "level", "WARN"));
        assertThat(sent.status()).isEqualTo(202);
        String alertId = sent.text("alertId");
        assertThat(sent.body().get("channels")).hasSize(9);
        await().atMost(BOUND).until(() -> !receivers.about("/phone", "Test alert from admin-key:ops").isEmpty()
                && !receivers.about("/sms", "Test alert from admin-key:ops").isEmpty()
                && !receivers.about("/webhook", "checking the webhooks").isEmpty());
        String audit = service.admin().send("GET", "/api/v1/admin/audit?action=ALERT_TEST", null).raw().body();
        assertThat(audit).contains("checking the webhooks", alertId, "alerting:all");

        Response one = service.admin().send("POST", "/api/v1/admin/alerts/test",
                StockGuardClient.object("reason", "only the phone", "channel", "phone"));
        assertThat(one.status()).isEqualTo(202);
        assertThat(one.body().get("channels").get(0).asString()).isEqualTo("phone");
        assertThat(one.body().get("channels")).hasSize(1);
    }

    @Test
    void badInputToTheAlertEndpointsIsAStable4xx() {
        StockGuardClient admin = service.admin();
        assertProblem(admin.send("POST", "/api/v1/admin/alerts/test", StockGuardClient.object("reason", "x",
                "level", "FREEZE")), 400, "INVALID_REQUEST");
        assertProblem(admin.send("POST", "/api/v1/admin/alerts/test", StockGuardClient.object("level", "WARN")), 400,
                "INVALID_REQUEST");
        assertProblem(admin.send("POST", "/api/v1/admin/alerts/test", StockGuardClient.object("reason", "x",
                "channel", "nope")), 404, "UNKNOWN_CHANNEL");
        assertProblem(admin.sendRaw("POST", "/api/v1/admin/alerts/test", "{\"reason\":", "application/json"), 400,
                "INVALID_REQUEST");
        assertProblem(admin.send("GET", "/api/v1/admin/alerts?limit=0", null), 400, "INVALID_REQUEST");
        assertProblem(admin.send("GET", "/api/v1/admin/alerts?limit=501", null), 400, "INVALID_REQUEST");
        assertProblem(admin.send("GET", "/api/v1/admin/alerts?limit=many", null), 400, "INVALID_REQUEST");
        assertProblem(service.client().send("GET", "/api/v1/admin/alerts", null), 403, "FORBIDDEN");
        assertProblem(service.anonymous().send("GET", "/api/v1/admin/alerts", null), 401, "UNAUTHENTICATED");
    }

    private static void assertProblem(Response response, int status, String code) {
        assertThat(response.status()).as(response.raw().body()).isEqualTo(status);
        assertThat(response.code()).isEqualTo(code);
    }

    @Test
    void deadLettersBacklogAndAPersonsFreezeRaiseAlerts() {
        String sku = Ids.sku("alert-dlq");
        service.publish(new EventDeadLettered("stock-events-3@42", "event-1", sku, "a bucket would go negative"));
        await().atMost(BOUND).until(() -> fed(sku) != null && !receivers.about("/sms", sku).isEmpty());
        assertThat(fed(sku).get("level").asString()).isEqualTo("THROTTLE");
        assertThat(fed(sku).get("kind").asString()).isEqualTo("dead-letter");

        service.publish(new JournalBacklogChanged(true, 150_000, 100_000));
        service.publish(new JournalBacklogChanged(false, 40_000, 50_000));
        await().atMost(BOUND).until(() -> !receivers.about("/sms", "Journal backlog over its limit").isEmpty()
                && !receivers.about("/slack", "Journal backlog recovered").isEmpty());
        assertThat(receivers.about("/sms", "Journal backlog recovered")).isEmpty();

        String frozen = Ids.sku("alert-freeze-by-person");
        assertThat(service.admin().putSku(frozen, 10).status()).isEqualTo(201);
        assertThat(service.admin().freeze(frozen, "supplier recall").status()).isEqualTo(200);
        await().atMost(BOUND).until(() -> !receivers.about("/slack", frozen).isEmpty());
        assertThat(receivers.about("/slack", frozen).getFirst().body()).contains("[INFO]", "FROZEN", "supplier recall");
        assertThat(fed(frozen).get("level").asString()).isEqualTo("INFO");
        assertThat(receivers.about("/feishu", frozen)).isEmpty();
    }

    @Test
    void alertsOlderThanTheRetentionAreSwept() {
        String old = java.util.UUID.randomUUID().toString();
        service.jdbc().update("INSERT INTO alert (id, raised_at, level, kind, title, detail, dedupe_key) "
                + "VALUES (?, now() - interval '2 days', 'WARN', 'drift', 't', 'd', 'k')", old);
        service.jdbc().update("INSERT INTO alert_delivery (alert_id, channel, status, attempts, updated_at) "
                + "VALUES (?, 'slack', 'SENT', 1, now())", old);
        await().atMost(BOUND).until(() -> service.jdbc().queryForObject(
                "SELECT COUNT(*) FROM alert_delivery WHERE alert_id = ?", Long.class, old) == 0
                && service.jdbc().queryForObject("SELECT COUNT(*) FROM alert WHERE id = ?", Long.class, old) == 0);
    }

    @Test
    void onMariaDbAlertsAreRecordedDeliveredAndSwept() {
        Map<String, String> settings = Map.of("stockguard.alerting.channels[0].name", "hook",
                "stockguard.alerting.channels[0].type", "webhook",
                "stockguard.alerting.channels[0].url", receivers.url("/webhook"),
                "stockguard.alerting.retention.max-age", "1h", "stockguard.alerting.retention.sweep-interval", "1s");
        try (RunningService maria = RunningService.start(TestDatabase.fresh(TestDatabase.Kind.MARIADB), settings)) {
            String sku = Ids.sku("alert-maria");
            maria.bean(Alerts.class).raise(Alert.of(AlertLevel.WARN, "drift", sku, "Drift 0.9%", "", Instant.now()));
            maria.bean(Alerts.class).raise(Alert.of(AlertLevel.WARN, "drift", sku, "Drift 0.9%", "", Instant.now()));
            await().atMost(BOUND).until(() -> {
                List<RaisedAlert> feed = maria.bean(AlertFeed.class).recent(10);
                return feed.size() == 1 && feed.getFirst().suppressedCount() == 1
                        && feed.getFirst().deliveries().getFirst().status() == DeliveryStatus.SENT;
            });
            assertThat(receivers.about("/webhook", sku)).hasSize(1);
            String old = java.util.UUID.randomUUID().toString();
            maria.jdbc().update("INSERT INTO alert (id, raised_at, level, kind, title, detail, dedupe_key) "
                    + "VALUES (?, UTC_TIMESTAMP(6) - INTERVAL 2 DAY, 'WARN', 'drift', 't', 'd', 'k')", old);
            maria.jdbc().update("INSERT INTO alert_delivery (alert_id, channel, status, attempts, updated_at) "
                    + "VALUES (?, 'hook', 'SENT', 1, UTC_TIMESTAMP(6))", old);
            await().atMost(BOUND).until(() -> maria.jdbc().queryForObject(
                    "SELECT COUNT(*) FROM alert_delivery WHERE alert_id = ?", Long.class, old) == 0);
            assertThat(maria.bean(AlertFeed.class).recent(10)).hasSize(1);
        }
    }

    @Test
    void aBadChannelStopsTheServiceNamingTheSettingAndNotTheSecret() {
        Map<String, String> settings = Map.of("stockguard.alerting.channels[0].name", "ops",
                "stockguard.alerting.channels[0].type", "feishu",
                "stockguard.alerting.channels[0].url", "ftp://open.feishu.cn/hook/secret-hook-id",
                "stockguard.alerting.channels[0].secret", "do-not-print-me");
        assertThatThrownBy(() -> RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), settings))
                .satisfies(failure -> {
                    StringBuilder messages = new StringBuilder();
                    for (Throwable t = failure; t != null; t = t.getCause()) {
                        messages.append(t.getMessage()).append('\n');
                    }
                    assertThat(messages.toString()).contains("stockguard.alerting.channels[0].url")
                            .doesNotContain("do-not-print-me").doesNotContain("secret-hook-id");
                });
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new HashMap<>();
        for (String pair : raw.split("&")) {
            String[] parts = pair.split("=", 2);
            query.put(parts[0], URLDecoder.decode(parts[1], StandardCharsets.UTF_8));
        }
        return query;
    }

    private static String hmacBase64(String key, String data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return Base64.getEncoder().encodeToString(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
    }
}
