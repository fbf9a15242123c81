package io.stockguard.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.journal.kafka.JournalFixtures;
import io.stockguard.testing.Browser;
import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * Dead letters in the console of a real full-tier service (KRaft broker, Redis, PostgreSQL): an
 * event the database cannot apply shows on the page, an operator replays it with a reason in two
 * clicks once the cause is fixed, the replay is audited, a second replay says so plainly, and a
 * viewer sees the action disabled with the reason. Screenshots land in {@code target/screenshots}.
 */
class ConsoleDeadLettersIT {

    private static final int CLICKS_MAX = 3;
    private static final Duration DEAD_LETTER_WAIT = Duration.ofSeconds(60);
    private static RedisServer redis;
    private static KafkaCluster kafka;
    private static RunningService service;
    private static KafkaProducer<String, byte[]> producer;
    private Browser browser;

    @BeforeAll
    static void startFullTier() {
        redis = RedisServer.start();
        kafka = KafkaCluster.single();
        Map<String, String> settings = new HashMap<>(ConsolePeople.settings());
        settings.put("stockguard.kafka.writer.retry-backoff-max", "200ms");
        service = RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), redis.uri(),
                kafka.bootstrapServers(), settings);
        producer = JournalFixtures.producer(kafka.bootstrapServers());
    }

    @AfterAll
    static void stop() {
        producer.close();
        service.close();
        kafka.close();
        redis.close();
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
    void operatorReplaysAPoisonEventWithAReasonInTwoClicksAndItIsAuditedOnce() throws Exception {
        String sku = Ids.sku("dead");
        String order = Ids.order("dead");
        long id = poison(sku, order);

        browser.logIn(ConsolePeople.OPERATOR);
        browser.open("/console/dead-letters");
        WebElement row = letter(id);
        assertThat(row.getText()).contains(sku, "open", "bucket");
        assertThat(row.findElement(By.cssSelector("td.num")).getText()).isEqualTo("3");
        browser.assertUsable("dead letters");
        browser.screenshot("dead-letters");

        restoreBucket(sku);
        browser.resetClicks();
        browser.click(row.findElement(By.cssSelector("[data-action=replay]")));
        String confirmUrl = browser.url();
        assertThat(browser.text()).contains("Replay dead letter " + id);
        browser.find("#reason").sendKeys("bucket 0 restored after the bad edit");
        browser.assertUsable("replay confirmation");
        browser.screenshot("dead-letter-replay-confirm");
        browser.click(browser.find("[data-action=confirm]"));
        assertThat(browser.clicks()).as("clicks to replay, after typing the reason").isLessThanOrEqualTo(CLICKS_MAX);

        assertThat(browser.url()).endsWith("/console/dead-letters");
        assertThat(browser.find("p.notice").getText()).contains("Dead letter " + id + " replayed");
        assertThat(letter(id).findElement(By.cssSelector("[data-field=status]")).getText())
                .contains("replayed", ConsolePeople.OPERATOR.name());
        assertThat(letter(id).findElement(By.cssSelector("[data-action=replay]")).isEnabled()).isFalse();
        browser.screenshot("dead-letters-replayed");
        assertThat(reservationState(order)).isEqualTo("RESERVED");
        Map<String, Object> audited = service.jdbc().queryForMap("SELECT actor, reason FROM audit_log "
                + "WHERE action = 'REPLAY_DEAD_LETTER' AND target = ?", "dead-letter:" + id);
        assertThat((String) audited.get("actor")).contains(ConsolePeople.OPERATOR.name());
        assertThat(audited.get("reason")).isEqualTo("bucket 0 restored after the bad edit");

        // A second operator's confirmation, opened before the first one replayed it.
        Object body = browser.asyncScript("""
                const done = arguments[arguments.length - 1];
                const token = document.querySelector('meta[name=_csrf]').content;
                fetch(arguments[0], {method: 'POST',
                    headers: {'Content-Type': 'application/x-www-form-urlencoded'},
                    body: 'reason=second+try&_csrf=' + encodeURIComponent(token)})
                    .then(r => r.text().then(t => done(r.status + ' ' + t)));
                """, confirmUrl);
        assertThat((String) body).startsWith("200 ").contains("ALREADY_REPLAYED", "was already replayed by");
        browser.open(confirmUrl.substring(confirmUrl.indexOf("/console")));
        assertThat(browser.url()).endsWith("/console/dead-letters");
        assertThat(browser.find("[data-slot=problem]").getText()).contains("ALREADY_REPLAYED",
                "Dead letter " + id + " was already replayed", "nothing was done");
        browser.screenshot("dead-letters-already-replayed");
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM audit_log WHERE action = 'REPLAY_DEAD_LETTER' "
                + "AND target = ?", Integer.class, "dead-letter:" + id)).isEqualTo(1);
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM reservation_line WHERE order_id = ?",
                Integer.class, order)).isEqualTo(1);
    }

    @Test
    void viewerSeesTheReplayDisabledWithTheReasonAndAForgedPostIsRefused() throws Exception {
        String sku = Ids.sku("dead-viewer");
        long id = poison(sku, Ids.order("dead-viewer"));

        browser.logIn(ConsolePeople.VIEWER);
        browser.open("/console/dead-letters");
        WebElement replay = letter(id).findElement(By.cssSelector("[data-action=replay]"));
        assertThat(replay.isEnabled()).isFalse();
        assertThat(browser.find("#" + replay.getDomAttribute("aria-describedby")).getText())
                .contains("Viewers see everything and change nothing");
        browser.assertUsable("dead letters as a viewer");
        browser.screenshot("dead-letters-viewer");
        browser.size(Browser.PHONE);
        browser.open("/console/dead-letters");
        browser.assertUsable("dead letters on a phone");
        browser.screenshot("dead-letters-" + Browser.PHONE.width);

        Object status = browser.asyncScript("""
                const done = arguments[arguments.length - 1];
                const token = document.querySelector('meta[name=_csrf]').content;
                fetch('/console/dead-letters/' + arguments[0] + '/replay', {method: 'POST',
                    headers: {'Content-Type': 'application/x-www-form-urlencoded'},
                    body: 'reason=forged&_csrf=' + encodeURIComponent(token)}).then(r => done(r.status));
                """, id);
        assertThat(((Number) status).intValue()).isEqualTo(403);
        assertThat(service.jdbc().queryForObject("SELECT replayed_at IS NULL FROM dead_letter WHERE id = ?",
                Boolean.class, id)).isTrue();
    }

    /** Makes the SKU's bucket 0 unwritable, puts a reservation of it on the topic, and waits for its dead letter. */
    private long poison(String sku, String order) throws Exception {
        assertThat(service.client().putSku(sku, 100, 2).status()).isEqualTo(201);
        // A hand edit removed a bucket row: nothing of this SKU's bucket 0 can be applied until it is back.
        service.jdbc().update("DELETE FROM stock_bucket WHERE sku_id = ? AND bucket = 0", sku);
        String eventId = JournalFixtures.sendReserve(service, producer, sku, order, 1);
        return await().atMost(DEAD_LETTER_WAIT).until(() -> service.jdbc().queryForList(
                "SELECT id FROM dead_letter WHERE event_id = ?", Long.class, eventId).stream().findFirst()
                .orElse(null), found -> found != null);
    }

    private void restoreBucket(String sku) {
        service.jdbc().update("INSERT INTO stock_bucket (sku_id, bucket, available, reserved, sold, mode, applied_sum) "
                + "VALUES (?, 0, 50, 0, 0, 'NORMAL', 0)", sku);
    }

    private WebElement letter(long id) {
        return browser.find("tr[data-letter='" + id + "']");
    }

    private String reservationState(String order) {
        return service.jdbc().query("SELECT state FROM reservation WHERE order_id = ?", (rs, i) -> rs.getString(1),
                order).stream().findFirst().orElse(null);
    }
}
