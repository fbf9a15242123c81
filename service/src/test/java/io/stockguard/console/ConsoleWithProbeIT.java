package io.stockguard.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.Browser;
import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The console with the real reconciliation probe on the Redis tier, in headless Chromium: a SKU
 * inflated behind the service's back shows its exact drift, its freeze by the probe and the alert
 * in the live feed; the operator heals it from the SKU page in two steps. The README's screenshot
 * comes from here ({@code -Dstockguard.update-docs=true}).
 */
class ConsoleWithProbeIT {

    private static final String LIPSTICK = "LIPSTICK-01";
    private static final String SERUM = "SERUM-02";
    private static final String MASCARA = "MASCARA-03";

    @Test
    void showsTheProbesDriftFreezeAndAlertAndHealsInTwoSteps() throws Exception {
        Map<String, String> settings = new HashMap<>(ConsolePeople.settings());
        settings.putAll(Map.of("stockguard.reconciliation.enabled", "true", "stockguard.reconciliation.tick", "100ms",
                "stockguard.reconciliation.hot-interval", "300ms", "stockguard.reconciliation.elevated-interval", "200ms",
                "stockguard.reconciliation.watch-list", String.join(",", LIPSTICK, SERUM, MASCARA)));
        try (RedisServer redis = RedisServer.start();
                RunningService service = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        redis.uri(), false, settings);
                HotStoreChecks hot = HotStoreChecks.standalone(redis.uri());
                Browser browser = new Browser(service.baseUrl())) {
            assertThat(service.admin().putSku(LIPSTICK, 8000).status()).isEqualTo(201);
            assertThat(service.admin().putSku(SERUM, 1200).status()).isEqualTo(201);
            assertThat(service.admin().putSku(MASCARA, 500, 1).status()).isEqualTo(201);
            for (int i = 0; i < 12; i++) {
                assertThat(service.client().reserve("probe-warmup-" + i, new Line(LIPSTICK, 2), new Line(SERUM, 1),
                        new Line(MASCARA, 1)).status()).isEqualTo(201);
            }
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> service.jdbc()
                    .queryForObject("SELECT COUNT(DISTINCT sku_id) FROM drift_reading WHERE kind = 'IN_STEP'",
                            Integer.class) == 3);

            // A pre-sale script adds 4.2 % of LIPSTICK-01's total to Redis, and 0.7 % to SERUM-02's.
            hot.redis().hincrby("sg:{" + LIPSTICK + "}:b", "3:a", 336);
            hot.redis().hincrby("sg:{" + SERUM + "}:b", "0:a", 8);
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> "FROZEN".equals(
                    service.jdbc().queryForObject("SELECT mode FROM sku WHERE sku_id = ?", String.class, LIPSTICK)));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> service.jdbc()
                    .queryForObject("SELECT COUNT(*) FROM drift_reading WHERE sku_id = ? AND level = 'WARN'",
                            Integer.class, SERUM) > 0);

            browser.logIn(ConsolePeople.OPERATOR);
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() -> {
                browser.open("/console");
                return browser.text().contains("4.20 %");
            });
            String overview = browser.text();
            assertThat(overview).contains("FROZEN", "4.20 %", "0.67 %").doesNotContain("Probe not running");
            assertThat(browser.find("[data-slot=alert-feed]").getText()).contains(LIPSTICK);
            Path shot = browser.screenshot("overview-probe");
            browser.assertUsable("overview with the probe");
            if (Boolean.getBoolean("stockguard.update-docs")) {
                // Only on request: a test run should not leave the work tree changed.
                Files.copy(shot, Files.createDirectories(Path.of("..", "docs")).resolve("console.png"),
                        StandardCopyOption.REPLACE_EXISTING);
            }

            browser.open("/console/skus/" + LIPSTICK);
            assertThat(browser.findAll("svg.drift-chart")).as("the drift chart of the real readings").isNotEmpty();
            browser.screenshot("sku-probe");
            browser.resetClicks();
            browser.click(browser.find("[data-action=heal]"));
            browser.find("#reason").sendKeys("pre-sale script inflated Redis");
            browser.click(browser.find("[data-action=confirm]"));
            assertThat(browser.clicks()).as("clicks to heal").isLessThanOrEqualTo(3);
            assertThat(browser.text()).contains("healed: drift 336 units before, 0 after");
            assertThat(service.jdbc().queryForObject("SELECT mode FROM sku WHERE sku_id = ?", String.class, LIPSTICK))
                    .isEqualTo("NORMAL");
            browser.screenshot("sku-healed");
        }
    }
}
