package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testing.StockGuardClient.Response;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The recipes under deploy/ against a running full tier (Redis, Kafka, PostgreSQL), the tier with
 * the most metrics: the probe paths they point at answer without a key, the metrics path wants
 * one, and every metric the alert rules and the dashboard read is in /actuator/prometheus once
 * the service has done what makes it appear (a reservation journaled through Kafka and applied, a
 * probe, a freeze, dead letters, an alert whose channel cannot be reached).
 */
class DeployRecipesIT {

    /** Prometheus makes {@code up} itself, for every target it scrapes; no service exports it. */
    private static final Set<String> MADE_BY_PROMETHEUS = Set.of("up");
    private static final Pattern SAMPLE = Pattern.compile("(?m)^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]");
    /** The metrics appear within moments of what makes them; on a busy two-core machine allow more. */
    private static final Duration METRICS_APPEAR_MAX = Duration.ofSeconds(90);

    private static RedisServer redis;
    private static KafkaCluster kafka;
    private static RunningService service;
    private static String topic;
    private static HttpServer refusingReceiver;

    @BeforeAll
    static void start() throws IOException {
        refusingReceiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        refusingReceiver.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        refusingReceiver.start();
        redis = RedisServer.start();
        kafka = KafkaCluster.single();
        topic = "stockguard.recipes." + UUID.randomUUID();
        service = RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), redis.uri(),
                kafka.bootstrapServers(), Map.of("stockguard.kafka.topic", topic,
                        // A channel whose receiver refuses every alert: its failed deliveries are what
                        // StockGuardAlertDeliveryFailing reads.
                        "stockguard.alerting.channels[0].name", "ops-hook",
                        "stockguard.alerting.channels[0].type", "WEBHOOK",
                        "stockguard.alerting.channels[0].url",
                        "http://127.0.0.1:" + refusingReceiver.getAddress().getPort() + "/alerts",
                        "stockguard.alerting.retries", "0"));
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (redis != null) {
            redis.close();
        }
        if (refusingReceiver != null) {
            refusingReceiver.stop(0);
        }
    }

    @Test
    void theProbePathsTheRecipesUseAnswerWithoutAKeyAndTheMetricsPathWantsOne() {
        StockGuardClient anonymous = service.anonymous();
        for (String probe : new String[] {DeployRecipes.LIVENESS, DeployRecipes.READINESS}) {
            Response answer = anonymous.send("GET", probe, null);
            assertThat(answer.status()).as(probe).isEqualTo(200);
            assertThat(answer.text("status")).as(probe).isEqualTo("UP");
        }
        assertThat(anonymous.send("GET", DeployRecipes.METRICS, null).status()).isEqualTo(401);
        assertThat(service.client().send("GET", DeployRecipes.METRICS, null).status()).isEqualTo(200);
    }

    @Test
    void theImagesHealthCheckPassesAgainstAReadyServiceAndFailsWhereNoneListens() throws Exception {
        String check = DeployRecipes.healthcheckCommand();
        assertThat(healthCheck(check, service.port())).as("the check against the ready service").isZero();
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        assertThat(healthCheck(check, closed)).as("the check where nothing listens").isNotZero();
    }

    /** Runs the HEALTHCHECK's shell command as Docker would, with SERVER_PORT set; its exit code. */
    private static int healthCheck(String command, int port) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("SERVER_PORT", Integer.toString(port));
        Process process = builder.start();
        try {
            assertThat(process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).as("the check finished").isTrue();
            return process.exitValue();
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void everyMetricTheAlertRulesAndTheDashboardReadIsOneTheServiceExports() throws Exception {
        StockGuardClient client = service.client();
        StockGuardClient admin = service.admin();
        String sku = Ids.sku("recipes");
        String order = Ids.order("recipes");
        assertThat(client.putSku(sku, 100, 2).status()).isEqualTo(201);
        assertThat(client.reserve(order, new Line(sku, 2)).status()).isEqualTo(201);
        assertThat(client.confirm(order).status()).isEqualTo(200);
        service.awaitJournalApplied(sku);
        assertThat(admin.send("POST", "/api/v1/admin/skus/" + sku + "/probe", null).status()).isEqualTo(200);
        assertThat(admin.freeze(sku, "checking the deployment recipes' metrics").status()).isEqualTo(200);
        // Two records that are no stock event, keyed by the SKU: both become dead letters, and the
        // second one's alert is deduplicated against the first.
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 2; i++) {
                producer.send(new ProducerRecord<>(topic, sku, "not a stock event".getBytes(StandardCharsets.UTF_8)))
                        .get(30, TimeUnit.SECONDS);
            }
        }
        assertThat(admin.send("POST", "/api/v1/admin/alerts/test", StockGuardClient.object(
                "reason", "checking the deployment recipes' metrics", "level", "WARN")).status()).isEqualTo(202);

        Set<String> used = new TreeSet<>(DeployRecipes.metricNames());
        used.removeAll(MADE_BY_PROMETHEUS);
        assertThat(used).as("metric names read from the recipes").hasSizeGreaterThanOrEqualTo(20);
        await().atMost(METRICS_APPEAR_MAX).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(exported()).as("metrics /actuator/prometheus exports").containsAll(used));
        // The frozen-SKU alert reads the gauge of SKUs frozen now: the freeze above is in it (once
        // its cached count is refreshed).
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(frozenNow()).as("stockguard_guard_skus{mode=FROZEN}").isGreaterThanOrEqualTo(1));
    }

    private static double frozenNow() {
        String body = service.client().send("GET", DeployRecipes.METRICS, null).raw().body();
        Matcher line = Pattern.compile("(?m)^stockguard_guard_skus\\{[^}]*mode=\"FROZEN\"[^}]*} (\\S+)$").matcher(body);
        return line.find() ? Double.parseDouble(line.group(1)) : Double.NaN;
    }

    private static Set<String> exported() {
        Response scrape = service.client().send("GET", DeployRecipes.METRICS, null);
        assertThat(scrape.status()).isEqualTo(200);
        Set<String> names = new TreeSet<>();
        Matcher sample = SAMPLE.matcher(scrape.raw().body());
        while (sample.find()) {
            names.add(sample.group(1));
        }
        return names;
    }
}
