package io.stockguard.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.ConsoleSession;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.TestDatabase;
import org.junit.jupiter.api.Test;

/** The console's own statements (people, login throttle, SKU list, trace) on MariaDB, the other dialect. */
class ConsoleOnMariaDbIT {

    @Test
    void peopleThrottleOverviewAndTraceWorkOnMariaDb() {
        try (RunningService service = RunningService.start(TestDatabase.fresh(TestDatabase.Kind.MARIADB),
                ConsolePeople.settings())) {
            StockGuardClient admin = service.admin();
            admin.putSku("Mdb_1", 40);
            admin.putSku("Mdb-2", 40);
            assertThat(service.client().reserve("mdb-order", new Line("Mdb_1", 3)).status()).isEqualTo(201);

            ConsoleSession operator = new ConsoleSession(service.baseUrl());
            assertThat(operator.login(ConsolePeople.OPERATOR).location()).endsWith("/console");
            assertThat(operator.get("/console?filter=b_").body()).contains("Mdb_1").doesNotContain("Mdb-2");
            assertThat(service.client().reserve("mdb-all", new Line("Mdb-2", 40)).status()).isEqualTo(201);
            assertThat(operator.get("/console?soldOut=true").body()).contains("Mdb-2<").doesNotContain("Mdb_1<");
            assertThat(operator.get("/console/orders/mdb-order").body()).contains("RESERVE", "Mdb_1");

            StockGuardClient.Response created = admin.send("POST", "/api/v1/admin/people", StockGuardClient.object(
                    "name", "mei", "role", "VIEWER", "password", "mei-password-0123", "reason", "new on the rota"));
            assertThat(created.status()).isEqualTo(201);
            assertThat(new ConsoleSession(service.baseUrl()).login("mei", "mei-password-0123").location())
                    .endsWith("/console");

            ConsoleSession guesser = new ConsoleSession(service.baseUrl());
            for (int attempt = 1; attempt < 10; attempt++) {
                assertThat(guesser.login("mei", "wrong-" + attempt).location()).endsWith("?error");
            }
            assertThat(guesser.login("mei", "wrong-10").location()).endsWith("?throttled");
            assertThat(guesser.login("mei", "mei-password-0123").location()).endsWith("?throttled");
        }
    }
}
