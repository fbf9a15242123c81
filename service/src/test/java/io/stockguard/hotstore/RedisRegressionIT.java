package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TcpProxy;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * I5: a failover to a replica that missed the last writes (the post-mortem's 147 lost deductions),
 * with the default settings (no replica acknowledgement). The promoted replica believes in stock
 * that was already sold, at the same epoch; the history fence refuses its copy before anything is
 * sold from it, the SKU is loaded again from the database, people hear that Redis lost writes it
 * had acknowledged, and no more is sold than exists.
 */
class RedisRegressionIT {

    private static final int SUPPLY = 50;

    @Test
    void aFailoverThatLostWritesIsDetectedAndHealedWithoutOverselling() throws Exception {
        try (RedisServer master = RedisServer.start();
                RedisServer replica = RedisServer.start("--replicaof", "127.0.0.1", Integer.toString(master.port()));
                TcpProxy proxy = TcpProxy.to(master.port());
                // The hot path's own detection is under test here; the probe, which would freeze the
                // SKU on the same regression, is tested in ReconciliationIT.
                RunningService service = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        proxy.uri(), false, Map.of("stockguard.reconciliation.enabled", "false"));
                HotStoreChecks hot = HotStoreChecks.standalone(replica.uri())) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("regression");
            client.putSku(sku, SUPPLY, 2);
            for (int i = 0; i < 10; i++) {
                assertThat(client.reserve(Ids.order("before"), new StockGuardClient.Line(sku, 1)).status()).isEqualTo(201);
            }
            assertThat(master.command("WAIT", "1", "5000")).isEqualTo(":1");

            assertThat(replica.command("REPLICAOF", "NO", "ONE")).isEqualTo("+OK");
            for (int i = 0; i < 10; i++) {
                assertThat(client.reserve(Ids.order("lost"), new StockGuardClient.Line(sku, 1)).status())
                        .as("acknowledged, but only the old master has it").isEqualTo(201);
            }
            master.kill();
            proxy.switchTo(replica.port());
            // The service reconnects to the promoted replica; requests in the gap fall back to the
            // database and get their SKU rebuilt, so a canary SKU takes them, and the SKU under
            // test meets the stale replica only once the connection is back.
            String canary = Ids.sku("canary");
            client.putSku(canary, 1_000);
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                    .until(() -> client.reserve(Ids.order("canary"), new StockGuardClient.Line(canary, 1)).status() == 201
                            && "RESERVED".equals(client.reserve(Ids.order("canary"),
                                    new StockGuardClient.Line(canary, 1)).text("state"))
                            && "HOT".equals(service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?",
                                    String.class, canary)));

            int sold = client.reserveOneEach(sku, 40, Duration.ofSeconds(15));

            assertThat(sold).as("sold after the failover: exactly what the database still had").isEqualTo(SUPPLY - 20);
            service.awaitJournalApplied(sku);
            LedgerChecks.assertNoOversell(service.jdbc(), sku, SUPPLY);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
            assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM anomaly WHERE sku_id = ? AND kind = 'REGRESSION'",
                    Integer.class, sku)).as("no sequence number was handed out again").isZero();
            // Found by the requests (the probe is off here): people hear of it at the probe's level.
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                java.util.List<String> alerts = new java.util.ArrayList<>();
                service.admin().send("GET", "/api/v1/admin/alerts?limit=500", null).body().forEach(alert -> alerts.add(
                        alert.path("level").asString("") + " " + alert.path("kind").asString("") + " "
                                + alert.path("skuId").asString("")));
                assertThat(alerts).contains("FREEZE drift-regression " + sku);
            });
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).until(() -> "HOT".equals(
                    service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?", String.class, sku)));
            hot.awaitDrained(sku);
            hot.assertMatchesDatabase(service.jdbc(), sku);
        }
    }
}
