package io.stockguard.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Browser;
import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testing.StockGuardClient.Response;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.TestDatabase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

/**
 * The console as people use it, in a real headless Chromium against a real service: an operator
 * freezes a SKU from the overview in at most three clicks and the API refuses it at once; a
 * viewer cannot; an admin corrects a total with a reason; an order is traced across layers; every
 * page works on a desktop and on a phone. Screenshots land in {@code target/screenshots}.
 */
class ConsoleBrowserIT {

    private static final String LIPSTICK = "LIPSTICK-01";
    private static final String SERUM = "SERUM-02";
    private static final String MASCARA = "MASCARA-03";
    private static final int CLICKS_MAX = 3;
    private static RunningService service;
    private Browser browser;

    @BeforeAll
    static void startWithStock() {
        service = RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), ConsolePeople.settings());
        StockGuardClient admin = service.admin();
        assertThat(admin.putSku(LIPSTICK, 8000).status()).isEqualTo(201);
        assertThat(admin.putSku(SERUM, 1200).status()).isEqualTo(201);
        assertThat(admin.putSku(MASCARA, 500, 1).status()).isEqualTo(201);
        StockGuardClient orders = service.client();
        for (int i = 0; i < 12; i++) {
            assertThat(orders.reserve("warmup-" + i, new Line(LIPSTICK, 2), new Line(SERUM, 1)).status()).isEqualTo(201);
            if (i % 3 != 0) {
                assertThat(orders.confirm("warmup-" + i).status()).isEqualTo(200);
            }
        }
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    @BeforeEach
    void openBrowser() {
        browser = new Browser(service.baseUrl());
    }

    @AfterEach
    void closeBrowser() {
        browser.close();
    }

    @Test
    void operatorFreezesFromTheOverviewInTwoClicksAndUnfreezesOnAPhone() throws IOException {
        browser.logIn(ConsolePeople.OPERATOR);
        browser.screenshot("overview");
        browser.assertUsable("overview");

        browser.resetClicks();
        browser.click(row(LIPSTICK).findElement(org.openqa.selenium.By.cssSelector("[data-action=freeze]")));
        browser.screenshot("freeze-confirm");
        browser.assertUsable("freeze confirmation");
        browser.click(browser.find("[data-action=confirm]"));
        assertThat(browser.clicks()).as("clicks to freeze from the overview").isLessThanOrEqualTo(CLICKS_MAX);
        assertThat(browser.url()).endsWith("/console");
        assertThat(row(LIPSTICK).getText()).contains("FROZEN");
        assertThat(browser.text()).contains(LIPSTICK + " is frozen");
        browser.screenshot("overview-frozen");

        Response refused = service.client().reserve("after-freeze", new Line(LIPSTICK, 1));
        assertThat(refused.status()).isEqualTo(423);
        assertThat(refused.code()).isEqualTo("SKU_FROZEN");
        assertThat(service.client().cancel("warmup-0").status()).as("cancels still work").isEqualTo(200);

        browser.open("/console/audit?target=sku:" + LIPSTICK + "&action=FREEZE");
        WebElement audited = browser.find("tr[data-action=FREEZE]");
        assertThat(audited.getText()).contains("person:" + ConsolePeople.OPERATOR.name(),
                "Stopped from the console by " + ConsolePeople.OPERATOR.name(), "NORMAL", "FROZEN");
        browser.screenshot("audit");
        browser.assertUsable("audit");

        browser.size(Browser.PHONE);
        browser.open("/console");
        browser.assertUsable("overview on a phone");
        browser.screenshot("overview-phone");
        browser.resetClicks();
        browser.click(row(LIPSTICK).findElement(org.openqa.selenium.By.cssSelector("[data-action=unfreeze]")));
        browser.find("#reason").sendKeys("checked: Redis and database agree");
        browser.assertUsable("unfreeze confirmation on a phone");
        browser.screenshot("unfreeze-confirm-phone");
        browser.click(browser.find("[data-action=confirm]"));
        assertThat(browser.clicks()).as("clicks to unfreeze").isLessThanOrEqualTo(CLICKS_MAX);
        assertThat(row(LIPSTICK).getText()).contains("NORMAL");
        assertThat(service.client().reserve("after-unfreeze", new Line(LIPSTICK, 1)).status()).isEqualTo(201);
    }

    @Test
    void viewerSeesTheFreezeDisabledWithTheReasonAndAForgedPostIsRefused() {
        browser.logIn(ConsolePeople.VIEWER);
        WebElement freeze = row(SERUM).findElement(org.openqa.selenium.By.cssSelector("[data-action=freeze]"));
        assertThat(freeze.isEnabled()).isFalse();
        String why = browser.find("#" + freeze.getDomAttribute("aria-describedby")).getText();
        assertThat(why).contains("Viewers see everything and change nothing");
        assertThat(row(SERUM).getText()).contains(why);

        browser.open("/console/skus/" + SERUM);
        assertThat(browser.find("[data-action=freeze]").isEnabled()).isFalse();
        assertThat(browser.find("[data-action=adjust]").isEnabled()).isFalse();
        assertThat(browser.text()).contains("Viewers see everything and change nothing");
        browser.screenshot("sku-as-viewer");
        browser.assertUsable("SKU page as a viewer");

        Object status = browser.asyncScript("""
                const done = arguments[arguments.length - 1];
                const token = document.querySelector('meta[name=_csrf]').content;
                fetch('/console/skus/%s/freeze', {method: 'POST',
                    headers: {'Content-Type': 'application/x-www-form-urlencoded'},
                    body: 'reason=forged&_csrf=' + encodeURIComponent(token)}).then(r => done(r.status));
                """.formatted(SERUM));
        assertThat(((Number) status).intValue()).isEqualTo(403);
        browser.open("/console/skus/" + SERUM + "/freeze");
        assertThat(browser.text()).contains("Not allowed");
        assertThat(service.admin().sku(SERUM).text("mode")).isEqualTo("NORMAL");
        assertThat(service.client().reserve("viewer-tried", new Line(SERUM, 1)).status()).isEqualTo(201);
    }

    @Test
    void adminAdjustsTheTotalWithAReasonInThreeSteps() {
        browser.logIn(ConsolePeople.ADMIN);
        browser.open("/console/skus/" + MASCARA);
        browser.screenshot("sku");
        long before = service.admin().sku(MASCARA).number("total");

        browser.resetClicks();
        WebElement value = browser.find("#adjust-value");
        value.clear();
        value.sendKeys("650");
        browser.find("#adjust-reason").sendKeys("recount after the 02:00 delivery");
        browser.click(browser.find("[data-action=adjust]"));
        assertThat(browser.text()).contains(before + " → 650");
        browser.screenshot("adjust-review");
        browser.assertUsable("adjustment review");
        browser.click(browser.find("[data-action=confirm]"));
        assertThat(browser.clicks()).as("clicks to adjust, after typing value and reason").isLessThanOrEqualTo(2);
        assertThat(browser.text()).contains("adjusted from " + before + " to 650");
        assertThat(browser.find("[data-field=total]").getText()).isEqualTo("650");
        assertThat(service.admin().sku(MASCARA).number("total")).isEqualTo(650);

        browser.open("/console/audit?target=sku:" + MASCARA + "&action=ADJUST");
        assertThat(browser.find("tr[data-action=ADJUST]").getText()).contains("person:" + ConsolePeople.ADMIN.name(),
                "recount after the 02:00 delivery");
    }

    @Test
    void operatorTracesAnOrderAcrossLayersInOneStep() {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        Response reserved = service.client().execute(HttpRequest.newBuilder(
                URI.create(service.baseUrl() + "/api/v1/reservations"))
                .header("Authorization", "Bearer " + RunningService.API_KEY)
                .header("Content-Type", "application/json")
                .header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"orderId\":\"order-trace-1\",\"lines\":[{\"skuId\":\"" + SERUM + "\",\"qty\":3}]}"))
                .build());
        assertThat(reserved.status()).isEqualTo(201);
        assertThat(service.client().confirm("order-trace-1").text("state")).isEqualTo("CONFIRMED");

        browser.logIn(ConsolePeople.OPERATOR);
        browser.resetClicks();
        browser.find("#trace-order").sendKeys("order-trace-1");
        browser.click(browser.find("form.search button"));
        assertThat(browser.clicks()).isEqualTo(1);
        assertThat(browser.url()).endsWith("/console/orders/order-trace-1");
        assertThat(browser.find("[data-field=state]").getText()).isEqualTo("CONFIRMED");
        assertThat(browser.findAll("tr[data-op=RESERVE]")).hasSize(1);
        assertThat(browser.findAll("tr[data-op=CONFIRM]")).hasSize(1);
        assertThat(browser.find("tr[data-op=RESERVE]").getText()).contains(traceId, SERUM);
        assertThat(browser.text()).contains("reservation row created", "confirmed (sold)");
        browser.screenshot("order-trace");
        browser.assertUsable("order trace");
        browser.size(Browser.PHONE);
        browser.assertUsable("order trace on a phone");
        browser.screenshot("order-trace-phone");
    }

    @Test
    void everyPageWorksOnADesktopAndOnAPhone() {
        browser.open("/console/login");
        browser.assertUsable("login");
        browser.screenshot("login");
        browser.logIn(ConsolePeople.ADMIN);
        List<String> pages = List.of("/console", "/console/skus/" + LIPSTICK, "/console/skus/" + LIPSTICK + "/freeze",
                "/console/audit", "/console/orders", "/console/orders/warmup-1", "/console/runbooks",
                "/console/runbooks/redis-down", "/console/runbooks/drift-detected",
                "/console/runbooks/backlog-over-threshold", "/console/runbooks/preheat-failing", "/console/runbooks/dead-letters", "/console/people",
                "/console/keys", "/console/dead-letters", "/console/catalogue");
        for (Dimension size : List.of(Browser.DESKTOP, Browser.PHONE)) {
            browser.size(size);
            for (String page : pages) {
                browser.open(page);
                assertThat(browser.text()).as(page).doesNotContain("Exception", "Not allowed");
                if (page.startsWith("/console/runbooks/")) {
                    assertThat(browser.text()).as("the runbook's steps in its page").contains("What happened before");
                }
                browser.assertUsable(page + " at " + size.width + "x" + size.height);
                browser.screenshot(page.substring(1).replace('/', '_') + "-" + size.width);
            }
        }
    }

    @Test
    void withoutAProbeTheSkuPageSaysSoAndDrawsNoChart() {
        browser.logIn(ConsolePeople.VIEWER);
        browser.open("/console/skus/" + SERUM);

        assertThat(browser.find("[data-slot=drift-chart]").getText()).contains("Probe not running");
        assertThat(browser.findAll("svg.drift-chart")).isEmpty();
        assertThat(browser.find("[data-slot=drift]").getText()).doesNotContain("%");
        assertThat(browser.findAll("svg.sparkline")).as("no sparkline on the overview either").isEmpty();
    }

    @Test
    void withoutAKafkaJournalTheDeadLettersPageSaysSoInOneClickFromTheNavigation() {
        browser.logIn(ConsolePeople.OPERATOR);
        browser.resetClicks();
        browser.click(browser.find("nav a[href='/console/dead-letters']"));

        assertThat(browser.clicks()).isEqualTo(1);
        assertThat(browser.find("[data-slot=no-kafka]").getText()).contains("No Kafka journal in this tier",
                "stockguard.journal=kafka");
        assertThat(browser.findAll("table.dead-letters")).isEmpty();
        browser.screenshot("dead-letters-no-kafka");
        browser.open("/console/dead-letters/1/replay");
        assertThat(browser.text()).contains("has no Kafka journal", "NOT_FOUND").doesNotContain("Exception");
    }

    private WebElement row(String sku) {
        return browser.find("tr[data-sku='" + sku + "']");
    }
}
