package io.stockguard.access;

import static io.stockguard.testing.ConsoleSession.fields;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.ConsoleSession;
import io.stockguard.testing.ConsoleSession.Page;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Console sessions on MariaDB, the other dialect: its session tables (named in capitals), the
 * upsert of attributes and the batched sweep. ConsoleSessionsAcrossInstancesIT shows the sharing.
 */
class ConsoleSessionsOnMariaDbIT {

    private static final Duration SESSION_TIMEOUT = Duration.ofMinutes(5);

    @Test
    void sessionsAreStoredRefusedWhenIdlePastTheirTimeoutAndSweptOnMariaDb() {
        TestDatabase database = TestDatabase.fresh(TestDatabase.Kind.MARIADB);
        Map<String, String> settings = new HashMap<>(ConsolePeople.settings());
        settings.put("stockguard.security.people.session-timeout", "5m");
        try (RunningService service = RunningService.start(database, settings)) {
            StoredSessions stored = new StoredSessions(database.jdbc());
            String sku = Ids.sku("mdb-session");
            assertThat(service.admin().putSku(sku, 10).status()).isEqualTo(201);

            ConsoleSession operator = new ConsoleSession(service.baseUrl());
            assertThat(operator.login(ConsolePeople.OPERATOR).location()).endsWith("/console");
            Page frozen = operator.postForm("/console/skus/" + sku + "/freeze", fields("reason", "drift seen",
                    "_csrf", operator.csrfToken("/console/skus/" + sku + "/freeze")));
            assertThat(frozen.status()).as(frozen.body()).isEqualTo(302);
            assertThat(service.admin().sku(sku).text("mode")).isEqualTo("FROZEN");
            String operatorId = StoredSessions.idOf(operator);
            assertThat(stored.maxInactiveInterval(operatorId)).isEqualTo(SESSION_TIMEOUT);
            assertThat(stored.attributesOf(stored.primaryIdOf(operatorId))).isGreaterThanOrEqualTo(2);

            ConsoleSession idle = new ConsoleSession(service.baseUrl());
            assertThat(idle.login(ConsolePeople.VIEWER).location()).endsWith("/console");
            assertThat(idle.get("/console").status()).isEqualTo(200);
            String idleId = StoredSessions.idOf(idle);
            String idleRow = stored.primaryIdOf(idleId);
            String idleCookie = idle.cookie(StoredSessions.COOKIE);
            stored.idle(idleId, SESSION_TIMEOUT.plusSeconds(1));

            assertThat(service.bean(ConsoleSessionSweeper.class).sweep()).isGreaterThanOrEqualTo(1);
            assertThat(stored.exists(idleId)).isFalse();
            assertThat(stored.attributesOf(idleRow)).isZero();
            assertThat(ConsoleSession.holding(service.baseUrl(), StoredSessions.COOKIE, idleCookie).get("/console")
                    .status()).isEqualTo(302);
            assertThat(stored.exists(operatorId)).isTrue();
            assertThat(operator.get("/console/skus/" + sku).body()).contains("<strong>olga</strong>");
        }
    }
}
