package io.stockguard.access;

import static io.stockguard.testing.ConsoleSession.fields;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.ConsoleSession;
import io.stockguard.testing.ConsoleSession.Page;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testkit.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Console sessions are in the database: two instances on one database serve one browser as a load
 * balancer without sticky sessions would send it, to either. A login through one is a login on
 * both, a logout on one ends the session on both, and a session idle past its timeout is refused by
 * both and swept away.
 */
class ConsoleSessionsAcrossInstancesIT {

    /** Shorter than the 30 minutes of the default, so a session kept for the default would show. */
    private static final Duration SESSION_TIMEOUT = Duration.ofMinutes(5);

    private static RunningService first;
    private static RunningService second;
    private static StoredSessions stored;

    @BeforeAll
    static void startTwoInstancesOnOneDatabase() {
        TestDatabase database = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        // One map for both: the people's password hashes are salted afresh on every call.
        Map<String, String> settings = new HashMap<>(ConsolePeople.settings());
        settings.put("stockguard.security.people.session-timeout", "5m");
        first = RunningService.start(database, settings);
        second = RunningService.start(database, settings);
        stored = new StoredSessions(database.jdbc());
    }

    @AfterAll
    static void stop() {
        first.close();
        second.close();
    }

    @Test
    void aPersonLoggedInThroughOneInstanceActsThroughTheOtherAndLogsOutOfBoth() {
        String sku = Ids.sku("shared-session");
        assertThat(first.admin().putSku(sku, 20).status()).isEqualTo(201);
        ConsoleSession viaFirst = new ConsoleSession(first.baseUrl());
        ConsoleSession viaSecond = viaFirst.at(second.baseUrl());

        Page asked = viaSecond.get("/console/skus/" + sku);
        assertThat(asked.status()).as("not logged in yet").isEqualTo(302);
        assertThat(asked.location()).endsWith("/console/login");
        Page login = viaFirst.login(ConsolePeople.OPERATOR);
        assertThat(pathOf(login.location())).as("the page asked for on the second instance, remembered by a cookie")
                .startsWith("/console/skus/" + sku);

        Page skuPage = viaSecond.get("/console/skus/" + sku);
        assertThat(skuPage.status()).isEqualTo(200);
        assertThat(skuPage.body()).contains("<strong>olga</strong>");

        // The form comes from one instance and is posted to the other, with the token it carries.
        String token = viaFirst.csrfToken("/console/skus/" + sku + "/freeze");
        Page frozen = viaSecond.postForm("/console/skus/" + sku + "/freeze",
                fields("reason", "drift seen on the dashboard", "_csrf", token));
        assertThat(frozen.status()).as(frozen.body()).isEqualTo(302);
        assertThat(first.admin().sku(sku).text("mode")).isEqualTo("FROZEN");
        assertThat(first.admin().send("GET", "/api/v1/admin/audit?target=sku:" + sku + "&action=FREEZE", null)
                .body().get(0).get("actor").asString()).isEqualTo("person:olga");
        assertThat(viaFirst.get(pathOf(frozen.location())).body()).as("the notice the second left for the next page")
                .contains(sku + " is frozen");

        String sessionId = StoredSessions.idOf(viaFirst);
        ConsoleSession copyOnFirst = ConsoleSession.holding(first.baseUrl(), StoredSessions.COOKIE,
                viaFirst.cookie(StoredSessions.COOKIE));
        assertThat(copyOnFirst.get("/console").status()).as("the cookie alone is the login").isEqualTo(200);

        Page loggedOut = viaSecond.postForm("/console/logout", fields("_csrf", viaSecond.csrfToken("/console")));
        assertThat(loggedOut.location()).endsWith("/console/login?logout");
        assertThat(stored.exists(sessionId)).isFalse();
        Page afterLogout = copyOnFirst.get("/console");
        assertThat(afterLogout.status()).as("logged out through the second, so on the first too").isEqualTo(302);
        assertThat(afterLogout.location()).endsWith("/console/login");
        assertThat(viaFirst.get("/console").status()).isEqualTo(302);
    }

    /**
     * Sessions are rows in the shared database: a visitor who never logs in must not make one, or
     * anyone could fill the table by opening the login page.
     */
    @Test
    void aVisitorWhoNeverLogsInLeavesNoSessionInTheDatabase() {
        ConsoleSession visitor = new ConsoleSession(first.baseUrl());

        assertThat(visitor.get("/console/login").status()).isEqualTo(200);
        Page asked = visitor.get("/console/keys");
        assertThat(asked.status()).isEqualTo(302);
        assertThat(visitor.login("nobody-by-that-name", "wrong-password-1").location())
                .endsWith("/console/login?error");
        assertThat(visitor.postForm("/console/login", fields("username", "nobody-by-that-name", "password",
                "wrong-password-1")).status()).as("a login form posted without its CSRF token").isEqualTo(403);
        assertThat(visitor.at(second.baseUrl()).get("/console/people").status()).isEqualTo(302);

        assertThat(visitor.cookie(StoredSessions.COOKIE)).isNull();
        assertThat(stored.anonymous()).as("sessions nobody logged in to").isZero();

        // The page asked for before the login is still where the login leads, on either instance.
        Page login = visitor.at(second.baseUrl()).login(ConsolePeople.VIEWER);
        assertThat(pathOf(login.location())).startsWith("/console/people");
        assertThat(stored.exists(StoredSessions.idOf(visitor))).isTrue();
        assertThat(visitor.get(pathOf(login.location())).status()).isEqualTo(200);
        assertThat(stored.anonymous()).isZero();
    }

    @Test
    void theCookiesAVisitorIsGivenBeforeLoginAreHttpOnlyAndSameSiteStrict() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        List<String> cookies = new ArrayList<>();
        for (String path : List.of("/console/login", "/console/keys")) {
            HttpResponse<Void> response = http.send(HttpRequest.newBuilder(URI.create(first.baseUrl() + path))
                    .build(), HttpResponse.BodyHandlers.discarding());
            cookies.addAll(response.headers().allValues("Set-Cookie"));
        }
        assertThat(cookies).as("the CSRF token and the page asked for")
                .anySatisfy(cookie -> assertThat(cookie).startsWith("CONSOLE-CSRF="))
                .anySatisfy(cookie -> assertThat(cookie).startsWith("REDIRECT_URI="));
        assertThat(cookies).allSatisfy(cookie -> assertThat(cookie).containsIgnoringCase("HttpOnly")
                .containsIgnoringCase("SameSite=Strict"));
    }

    @Test
    void aSessionIdlePastItsTimeoutIsRefusedByEveryInstance() {
        ConsoleSession idle = new ConsoleSession(first.baseUrl());
        assertThat(idle.login(ConsolePeople.VIEWER).location()).endsWith("/console");
        ConsoleSession busy = new ConsoleSession(second.baseUrl());
        assertThat(busy.login(ConsolePeople.VIEWER).location()).endsWith("/console");
        String idleId = StoredSessions.idOf(idle);
        String busyId = StoredSessions.idOf(busy);
        assertThat(stored.maxInactiveInterval(idleId)).isEqualTo(SESSION_TIMEOUT);
        assertThat(stored.maxInactiveInterval(busyId)).isEqualTo(SESSION_TIMEOUT);
        String idleCookie = idle.cookie(StoredSessions.COOKIE);

        stored.idle(idleId, SESSION_TIMEOUT.plusMinutes(1));
        stored.idle(busyId, SESSION_TIMEOUT.minusMinutes(1));

        assertThat(busy.get("/console").status()).as("idle for less than the timeout").isEqualTo(200);
        assertThat(busy.at(first.baseUrl()).get("/console").status()).isEqualTo(200);
        for (RunningService instance : new RunningService[] {second, first}) {
            Page refused = ConsoleSession.holding(instance.baseUrl(), StoredSessions.COOKIE, idleCookie)
                    .get("/console");
            assertThat(refused.status()).as("idle for longer than the timeout, on %s", instance.baseUrl())
                    .isEqualTo(302);
            assertThat(refused.location()).endsWith("/console/login");
        }
        assertThat(stored.exists(idleId)).isFalse();
    }

    @Test
    void theSweepDeletesExpiredSessionsWithTheirAttributesAndKeepsLiveOnes() {
        ConsoleSession expired = new ConsoleSession(first.baseUrl());
        expired.login(ConsolePeople.ADMIN);
        ConsoleSession live = new ConsoleSession(second.baseUrl());
        live.login(ConsolePeople.ADMIN);
        assertThat(expired.get("/console").status()).isEqualTo(200);
        String expiredId = StoredSessions.idOf(expired);
        String expiredRow = stored.primaryIdOf(expiredId);
        assertThat(stored.attributesOf(expiredRow)).as("the security context").isGreaterThanOrEqualTo(1);
        stored.idle(expiredId, SESSION_TIMEOUT.plusSeconds(1));

        int swept = second.bean(ConsoleSessionSweeper.class).sweep();

        assertThat(swept).isGreaterThanOrEqualTo(1);
        assertThat(stored.exists(expiredId)).isFalse();
        assertThat(stored.attributesOf(expiredRow)).isZero();
        assertThat(stored.exists(StoredSessions.idOf(live))).isTrue();
        assertThat(live.get("/console").status()).isEqualTo(200);
    }

    /** The path and query of a redirect's target, to follow it on another instance. */
    private static String pathOf(String location) {
        URI uri = URI.create(location);
        return uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }
}
