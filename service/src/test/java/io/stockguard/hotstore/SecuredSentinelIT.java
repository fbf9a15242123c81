package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.ConsoleSession;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Sentinel as a shop runs it: the data nodes demand a password, the Sentinel demands its own, and
 * the service is given both (never in the URL). A real promotion: the master dies, the Sentinel
 * promotes the replica, and the service follows it, selling exactly the stock there is; the admin
 * API and the console's overview show which master it follows, before and after.
 */
class SecuredSentinelIT {

    private static final String MASTER = "stockguard";
    private static final String DATA_PASSWORD = "data-nodes-secret-0123";
    private static final String SENTINEL_PASSWORD = "sentinels-secret-4567";
    private static final int SUPPLY = 20;
    private static final int BEFORE = 5;

    @Test
    void theServiceLogsInToBothFollowsAPromotionAndShowsWhichMasterItFollows() throws Exception {
        Map<String, String> settings = new HashMap<>(ConsolePeople.settings());
        settings.put("stockguard.reconciliation.enabled", "false");
        settings.put("stockguard.redis.password", DATA_PASSWORD);
        settings.put("stockguard.redis.sentinel-password", SENTINEL_PASSWORD);
        try (RedisServer master = RedisServer.start("--requirepass", DATA_PASSWORD, "--masterauth", DATA_PASSWORD);
                RedisServer replica = RedisServer.start("--requirepass", DATA_PASSWORD, "--masterauth", DATA_PASSWORD,
                        "--replicaof", "127.0.0.1", Integer.toString(master.port()));
                RedisServer sentinel = RedisServer.startSentinel(MASTER, master.port(), Duration.ofSeconds(1),
                        DATA_PASSWORD, SENTINEL_PASSWORD);
                RunningService service = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        "redis-sentinel://127.0.0.1:" + sentinel.port() + "#" + MASTER, false, settings)) {
            assertThat(sentinel.command("SENTINEL", "get-master-addr-by-name", MASTER))
                    .as("the Sentinel demands its own password").startsWith("-NOAUTH");
            assertThat(master.command("GET", "x")).as("the data nodes demand theirs").startsWith("-NOAUTH");
            StockGuardClient client = service.client();
            String sku = Ids.sku("secured-sentinel");
            client.putSku(sku, SUPPLY, 1);
            for (int i = 0; i < BEFORE; i++) {
                assertThat(client.reserve(Ids.order("before"), new StockGuardClient.Line(sku, 1)).status())
                        .as("sold from Redis through the Sentinel").isEqualTo(201);
            }
            assertThat(service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?", String.class, sku))
                    .isEqualTo("HOT");
            assertFollows(service, master.port(), "127.0.0.1:" + master.port());
            ConsoleSession operator = new ConsoleSession(service.baseUrl());
            operator.login(ConsolePeople.OPERATOR);
            assertThat(operator.get("/console").body()).contains("sentinel (Sentinel master stockguard)",
                    "127.0.0.1:" + master.port(), "port " + master.port() + ", master");
            await().atMost(Duration.ofSeconds(10)).until(() -> master.commandAs("default", DATA_PASSWORD,
                    "WAIT", "1", "1000").equals(":1"));

            master.kill();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> sentinel
                    .commandAs("default", SENTINEL_PASSWORD, "INFO", "sentinel")
                    .contains("address=127.0.0.1:" + replica.port() + ","));

            int sold = client.reserveOneEach(sku, SUPPLY, Duration.ofSeconds(30));
            assertThat(sold).as("after the promotion: exactly what was left").isEqualTo(SUPPLY - BEFORE);
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                    assertFollows(service, replica.port(), "127.0.0.1:" + replica.port()));
            assertThat(operator.get("/console").body()).contains("127.0.0.1:" + replica.port(),
                    "port " + replica.port() + ", master");
            service.awaitJournalApplied(sku);
            LedgerChecks.assertNoOversell(service.jdbc(), sku, SUPPLY);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
        }
    }

    private static void assertFollows(RunningService service, int port, String sentinelsSay) {
        StockGuardClient.Response followed = service.admin().send("GET", "/api/v1/admin/hot-store", null);
        assertThat(followed.status()).isEqualTo(200);
        assertThat(followed.text("mode")).isEqualTo("sentinel");
        assertThat(followed.text("sentinelMaster")).isEqualTo(MASTER);
        assertThat(followed.text("sentinelsSay")).isEqualTo(sentinelsSay);
        assertThat(followed.number("port")).isEqualTo(port);
        assertThat(followed.text("role")).isEqualTo("master");
        assertThat(followed.text("problem")).as(followed.raw().body()).isNull();
    }
}
