package io.stockguard.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.ConsoleSession.Page;
import io.stockguard.testing.ConsoleSession;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testing.StockGuardClient.Response;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * People's access, against a real service: who may call the admin API, CSRF on every change made
 * with a session, the login throttle, and that no page or error shows a stack trace or a secret.
 */
class ConsoleSecurityIT {

    private static RunningService service;
    private static final String SKU = Ids.sku("guarded");

    @BeforeAll
    static void start() {
        service = RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), ConsolePeople.settings());
        assertThat(service.admin().putSku(SKU, 100).status()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    /** Every endpoint under /api/v1/admin, as the service itself publishes them, with its method. */
    private static List<String[]> adminEndpoints() {
        JsonNode paths = service.anonymous().send("GET", "/v3/api-docs", null).body().get("paths");
        List<String[]> endpoints = new ArrayList<>();
        for (String path : paths.propertyNames()) {
            if (!path.startsWith("/api/v1/admin")) {
                continue;
            }
            String concrete = path.replace("{skuId}", SKU).replace("{orderId}", "order-1").replace("{name}", "somebody")
                    .replace("{id}", "1").replace("{jobId}", "job-1");
            for (String method : paths.get(path).propertyNames()) {
                endpoints.add(new String[] {method.toUpperCase(), concrete});
            }
        }
        return endpoints;
    }

    @Test
    void everyAdminEndpointRefusesAnonymousViewersAndOrderServiceKeys() {
        List<String[]> endpoints = adminEndpoints();
        assertThat(endpoints).as("the admin API as published").hasSizeGreaterThanOrEqualTo(20);
        ConsoleSession viewer = new ConsoleSession(service.baseUrl());
        viewer.login(ConsolePeople.VIEWER);
        String viewerToken = viewer.csrfToken("/console");
        for (String[] endpoint : endpoints) {
            String method = endpoint[0];
            String path = endpoint[1];
            String body = method.equals("GET") ? null : "{\"reason\":\"forged\",\"delta\":5}";
            Response anonymous = service.anonymous().sendRaw(method, path, body, "application/json");
            assertThat(anonymous.status()).as("anonymous %s %s", method, path).isEqualTo(401);
            assertThat(anonymous.code()).isEqualTo("UNAUTHENTICATED");
            Response orderService = service.client().sendRaw(method, path, body, "application/json");
            assertThat(orderService.status()).as("order-service key %s %s", method, path).isEqualTo(403);
            assertThat(orderService.code()).isEqualTo("FORBIDDEN");
            Page byViewer = viewer.json(method, path, body, viewerToken);
            assertThat(byViewer.status()).as("viewer %s %s", method, path).isEqualTo(403);
        }
        Response stock = service.admin().sku(SKU);
        assertThat(stock.text("mode")).isEqualTo("NORMAL");
        assertThat(stock.number("total")).isEqualTo(100);
    }

    @Test
    void operatorSessionsUseOperatorEndpointsWithTheirCsrfTokenButNotAdminOnes() {
        String sku = Ids.sku("op-api");
        service.admin().putSku(sku, 50);
        ConsoleSession operator = new ConsoleSession(service.baseUrl());
        operator.login(ConsolePeople.OPERATOR);
        String token = operator.csrfToken("/console");
        String freeze = "/api/v1/admin/skus/" + sku + "/freeze";

        assertThat(operator.json("POST", freeze, "{\"reason\":\"no token\"}", null).status()).isEqualTo(403);
        assertThat(service.admin().sku(sku).text("mode")).isEqualTo("NORMAL");

        Page frozen = operator.json("POST", freeze, "{\"reason\":\"drift seen\"}", token);
        assertThat(frozen.status()).as(frozen.body()).isEqualTo(200);
        assertThat(service.client().reserve(Ids.order("op-api"), new Line(sku, 1)).code()).isEqualTo("SKU_FROZEN");
        assertThat(operator.json("GET", "/api/v1/admin/audit?target=sku:" + sku, null, null).body())
                .contains("\"actor\":\"person:olga\"", "\"reason\":\"drift seen\"");

        Page adjust = operator.json("POST", "/api/v1/admin/skus/" + sku + "/adjust",
                "{\"delta\":5,\"reason\":\"not mine to do\"}", token);
        assertThat(adjust.status()).isEqualTo(403);
        assertThat(operator.json("GET", "/api/v1/admin/people", null, null).status()).isEqualTo(403);
        assertThat(service.admin().sku(sku).number("total")).isEqualTo(50);
    }

    @Test
    void consoleFormsWithoutTheirCsrfTokenAreRefused() {
        String sku = Ids.sku("csrf");
        service.admin().putSku(sku, 10);
        ConsoleSession operator = new ConsoleSession(service.baseUrl());
        operator.login(ConsolePeople.OPERATOR);

        Page forged = operator.postForm("/console/skus/" + sku + "/freeze", ConsoleSession.fields("reason", "forged"));
        assertThat(forged.status()).isEqualTo(403);
        assertThat(forged.body()).contains("Not allowed");
        assertThat(service.admin().sku(sku).text("mode")).isEqualTo("NORMAL");

        String token = operator.csrfToken("/console/skus/" + sku + "/freeze");
        Page genuine = operator.postForm("/console/skus/" + sku + "/freeze",
                ConsoleSession.fields("reason", "genuine", "_csrf", token));
        assertThat(genuine.status()).isEqualTo(302);
        assertThat(service.admin().sku(sku).text("mode")).isEqualTo("FROZEN");

        ConsoleSession stranger = new ConsoleSession(service.baseUrl());
        stranger.get("/console/login");
        Page loginWithoutToken = stranger.postForm("/console/login", ConsoleSession.fields("username",
                ConsolePeople.OPERATOR.name(), "password", ConsolePeople.OPERATOR.password()));
        assertThat(loginWithoutToken.status()).isEqualTo(403);
    }

    @Test
    void viewersFormsAreRefusedEvenWithAValidToken() {
        String sku = Ids.sku("viewer-form");
        service.admin().putSku(sku, 10);
        ConsoleSession viewer = new ConsoleSession(service.baseUrl());
        viewer.login(ConsolePeople.VIEWER);
        String token = viewer.csrfToken("/console");

        assertThat(viewer.get("/console/skus/" + sku + "/freeze").status()).isEqualTo(403);
        assertThat(viewer.postForm("/console/skus/" + sku + "/freeze",
                ConsoleSession.fields("reason", "forged", "_csrf", token)).status()).isEqualTo(403);
        assertThat(viewer.postForm("/console/skus/" + sku + "/adjust", ConsoleSession.fields("kind", "set", "value",
                "1", "reason", "forged", "_csrf", token)).status()).isEqualTo(403);
        assertThat(viewer.postForm("/console/people", ConsoleSession.fields("name", "mallory", "role", "ADMIN",
                "password", "mallory-password-1", "reason", "forged", "_csrf", token)).status()).isEqualTo(403);
        assertThat(service.admin().sku(sku).text("mode")).isEqualTo("NORMAL");
        assertThat(service.admin().sku(sku).number("total")).isEqualTo(10);
        assertThat(service.admin().send("GET", "/api/v1/admin/people", null).body().toString()).doesNotContain("mallory");
    }

    @Test
    void tenWrongPasswordsThrottleTheNameEvenForTheRightPassword() {
        ConsolePeople.Login tess = ConsolePeople.THROTTLED;
        ConsoleSession guesser = new ConsoleSession(service.baseUrl());
        for (int attempt = 1; attempt <= 9; attempt++) {
            assertThat(guesser.login(tess.name(), "wrong-guess-" + attempt).location()).as("attempt %d", attempt)
                    .endsWith("/console/login?error");
        }
        assertThat(guesser.login(tess.name(), "wrong-guess-10").location()).endsWith("/console/login?throttled");

        ConsoleSession owner = new ConsoleSession(service.baseUrl());
        assertThat(owner.login(tess).location()).endsWith("/console/login?throttled");
        assertThat(owner.get("/console").status()).as("not logged in").isEqualTo(302);
        assertThat(owner.get("/console/login?throttled").body()).contains("Too many wrong passwords");
        assertThat(service.jdbc().queryForObject(
                "SELECT COUNT(*) FROM login_throttle WHERE name = ? AND throttled_until > now()", Integer.class,
                tess.name())).isEqualTo(1);

        ConsoleSession someoneElse = new ConsoleSession(service.baseUrl());
        assertThat(someoneElse.login(ConsolePeople.VIEWER).location()).endsWith("/console");
    }

    @Test
    void aDisabledPersonLosesTheirSessionOnTheirNextRequest() {
        ConsoleSession admin = new ConsoleSession(service.baseUrl());
        admin.login(ConsolePeople.ADMIN);
        String name = "temp-" + Ids.order("p").replace("p-", "");
        Page created = admin.postForm("/console/people", ConsoleSession.fields("name", name, "role", "OPERATOR",
                "password", "temporary-password-1", "reason", "covering a shift", "_csrf", admin.csrfToken("/console/people")));
        assertThat(created.status()).as(created.body()).isEqualTo(302);

        ConsoleSession temp = new ConsoleSession(service.baseUrl());
        assertThat(temp.login(name, "temporary-password-1").location()).endsWith("/console");
        assertThat(temp.get("/console").status()).isEqualTo(200);

        Page disabled = admin.postForm("/console/people/" + name + "/enabled", ConsoleSession.fields("enabled", "false",
                "reason", "shift over", "_csrf", admin.csrfToken("/console/people")));
        assertThat(disabled.status()).isEqualTo(302);
        assertThat(temp.get("/console").status()).as("sent back to the login").isEqualTo(302);
        assertThat(temp.login(name, "temporary-password-1").location()).endsWith("/console/login?error");
        assertThat(service.admin().send("GET", "/api/v1/admin/audit?target=person:" + name, null).body().toString())
                .contains("PERSON_CREATE", "PERSON_DISABLE", "shift over").doesNotContain("temporary-password-1");
    }

    @Test
    void aKeyMadeInTheConsoleWorksAtOnceIsShownOnceAndStopsWhenRevoked() {
        ConsoleSession admin = new ConsoleSession(service.baseUrl());
        admin.login(ConsolePeople.ADMIN);
        String name = "checkout-" + Ids.order("k").replace("k-", "");
        Page created = admin.postForm("/console/keys", ConsoleSession.fields("name", name, "kind", "ORDER_SERVICE",
                "reason", "new checkout service", "_csrf", admin.csrfToken("/console/keys")));
        assertThat(created.status()).isEqualTo(200);
        java.util.regex.Matcher shown = java.util.regex.Pattern.compile("id=\"new-secret\" readonly value=\"([^\"]+)\"")
                .matcher(created.body());
        assertThat(shown.find()).as("the secret is shown once").isTrue();
        String secret = shown.group(1);
        StockGuardClient checkout = new StockGuardClient(service.baseUrl(), secret);
        assertThat(checkout.sku(SKU).status()).isEqualTo(200);
        assertThat(checkout.freeze(SKU, "not an admin key").status()).isEqualTo(403);
        assertThat(admin.get("/console/keys").body()).contains(name).doesNotContain(secret)
                .as("each revoke asks for a reason within the audit log's limit")
                .containsPattern("<label for=\"revoke-reason-\\d+\">Reason</label>\\s*"
                        + "<input id=\"revoke-reason-\\d+\" name=\"reason\" required maxlength=\"500\">");
        assertThat(service.jdbc().queryForObject("SELECT secret_hash FROM api_key WHERE name = ?", String.class, name))
                .doesNotContain(secret).hasSize(64);

        Page revoked = admin.postForm("/console/keys/" + name + "/revoke", ConsoleSession.fields("reason",
                "service retired", "_csrf", admin.csrfToken("/console/keys")));
        assertThat(revoked.status()).isEqualTo(302);
        assertThat(checkout.sku(SKU).status()).isEqualTo(401);
        assertThat(service.admin().send("GET", "/api/v1/admin/audit?target=key:" + name, null).raw().body())
                .contains("KEY_CREATE", "KEY_REVOKE", "person:ada").doesNotContain(secret);
    }

    @Test
    void noPageOrErrorShowsAStackTraceOrASecret() {
        ConsoleSession admin = new ConsoleSession(service.baseUrl());
        admin.login(ConsolePeople.ADMIN);
        ConsoleSession viewer = new ConsoleSession(service.baseUrl());
        viewer.login(ConsolePeople.VIEWER);
        ConsoleSession anonymous = new ConsoleSession(service.baseUrl());
        List<String> bodies = new ArrayList<>();
        for (String path : List.of("/console", "/console/skus/" + SKU, "/console/skus/NO-SUCH-SKU", "/console/people",
                "/console/keys", "/console/audit", "/console/audit?from=yesterday", "/console/orders/no-such-order",
                "/console/orders/%20bad%20id", "/console/runbooks/nope", "/console/skus/" + SKU + "/adjust?value=x",
                "/console/nothing-here", "/error")) {
            bodies.add(admin.get(path).body());
        }
        bodies.add(viewer.get("/console/skus/" + SKU + "/freeze").body());
        bodies.add(viewer.postForm("/console/skus/" + SKU + "/freeze", Map.of("reason", "x")).body());
        bodies.add(anonymous.get("/console/login?error").body());
        bodies.add(anonymous.login("ada", "not-the-password").body());
        bodies.add(service.admin().sendRaw("POST", "/api/v1/admin/skus/" + SKU + "/adjust", "{\"delta\":", "application/json")
                .raw().body());
        bodies.add(service.admin().sendRaw("POST", "/api/v1/admin/people", "{\"name\":\"x\",\"role\":\"ADMIN\","
                + "\"password\":\"short\",\"reason\":\"r\"}", "application/json").raw().body());
        bodies.add(service.anonymous().send("GET", "/api/v1/admin/audit", null).raw().body());
        for (String body : bodies) {
            assertThat(body).doesNotContain("Exception", "\tat ", "at org.", "at io.stockguard", "at java.",
                    RunningService.API_KEY, RunningService.ADMIN_KEY, ConsolePeople.ADMIN.password(),
                    ConsolePeople.VIEWER.password(), "$2a$", "{bcrypt}", "short\"");
        }
    }
}
