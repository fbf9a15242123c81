package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.PgBouncer;
import io.stockguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Every statement is bounded by {@code stockguard.database.statement-timeout}, wherever the
 * connection goes: straight to PostgreSQL with a deployment's own {@code connection-init-sql}, and
 * through a transaction-pooling PgBouncer, where a setting made once per connection is lost (the
 * first test shows it on the PgBouncer the others use). A statement is held here by a table lock
 * the test takes on the side; the socket timeout is set far beyond the statement timeout, so only
 * the statement timeout can answer in time.
 */
class StatementTimeoutBehindAPoolerIT {

    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(25);
    /** The statement timeout (1 s), the driver's cancel and a busy machine's slack; far under the socket timeout. */
    private static final Duration ANSWER_MAX = Duration.ofSeconds(8);

    @Test
    void thePgBouncerHereResetsEveryServerConnectionSoAPerConnectionSettingIsLost() throws SQLException {
        TestDatabase direct = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        try (PgBouncer bouncer = PgBouncer.transactionPooling(direct.port(), 2);
                Connection connection = java.sql.DriverManager.getConnection(bouncer.front(direct).jdbcUrl(),
                        direct.username(), direct.password());
                Statement statement = connection.createStatement()) {
            statement.execute("SET statement_timeout = 1234");
            try (ResultSet shown = statement.executeQuery("SHOW statement_timeout")) {
                shown.next();
                assertThat(shown.getString(1)).as("a session setting after its transaction ended").isNotEqualTo("1234ms");
            }
        }
    }

    @Test
    void behindATransactionPoolerEveryCallIsAnswered503WithinTheStatementTimeoutAndLosesNothing() {
        TestDatabase direct = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        try (PgBouncer bouncer = PgBouncer.transactionPooling(direct.port(), 4)) {
            Map<String, String> settings = settings();
            settings.put("stockguard.database.pooler", "transaction");
            // Migrations take a session lock: they go to the database directly, as docs/operations.md says.
            settings.put("spring.flyway.url", direct.jdbcUrl());
            try (RunningService service = RunningService.start(bouncer.front(direct), settings)) {
                blockedCallsAreAnsweredInTime(service, direct, "pooled");
            }
        }
    }

    @Test
    void aDeploymentsOwnConnectionInitSqlDoesNotTakeTheStatementTimeoutsPlace() {
        TestDatabase direct = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        Map<String, String> settings = settings();
        settings.put("spring.datasource.hikari.connection-init-sql", "SET application_name = 'shop-inventory'");
        try (RunningService service = RunningService.start(direct, settings)) {
            assertThat(service.jdbc().queryForObject("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                    + "'shop-inventory'", Long.class)).as("the deployment's own init SQL ran too").isPositive();
            blockedCallsAreAnsweredInTime(service, direct, "init-sql");
        }
    }

    private static Map<String, String> settings() {
        Map<String, String> settings = new HashMap<>();
        settings.put("stockguard.database.statement-timeout", "1s");
        settings.put("stockguard.database.socket-timeout", SOCKET_TIMEOUT.toSeconds() + "s");
        settings.put("stockguard.reconciliation.enabled", "false");
        return settings;
    }

    /**
     * A reservation (statements inside a transaction) and a stock read (a statement outside one)
     * wait on a lock the test holds: each is answered 503 within the bound, and once the lock is
     * gone the reservation's retry with the same order id is made exactly once.
     */
    private static void blockedCallsAreAnsweredInTime(RunningService service, TestDatabase direct, String name) {
        StockGuardClient client = service.client();
        String sku = Ids.sku(name);
        assertThat(client.putSku(sku, 50, 2).status()).isEqualTo(201);
        String order = Ids.order(name);
        StockGuardClient.Response reserve;
        StockGuardClient.Response read;
        DataSource side = direct.dataSource();
        try (Connection lock = side.getConnection()) {
            lock.setAutoCommit(false);
            try (Statement statement = lock.createStatement()) {
                statement.execute("LOCK TABLE sku IN ACCESS EXCLUSIVE MODE");
            }
            reserve = timed(() -> client.reserve(order, new StockGuardClient.Line(sku, 3)));
            read = timed(() -> client.sku(sku));
            lock.rollback();
        } catch (SQLException e) {
            throw new IllegalStateException("the test's own lock failed", e);
        } finally {
            closeQuietly(side);
        }
        assertThat(reserve.status()).as(reserve.raw().body()).isEqualTo(503);
        assertThat(reserve.code()).isIn("UNAVAILABLE", "OUTCOME_UNKNOWN");
        assertThat(read.status()).as(read.raw().body()).isEqualTo(503);
        StockGuardClient.Response[] retry = {null};
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            retry[0] = client.reserve(order, new StockGuardClient.Line(sku, 3));
            return retry[0].status() != 503;
        });
        assertThat(retry[0].status()).as(retry[0].raw().body()).isIn(200, 201);
        StockGuardClient.Response stock = client.sku(sku);
        assertThat(stock.number("available")).isEqualTo(47);
        assertThat(stock.number("reserved")).isEqualTo(3);
    }

    private static StockGuardClient.Response timed(Supplier<StockGuardClient.Response> call) {
        long started = System.nanoTime();
        StockGuardClient.Response response = call.get();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the time to answer while the table is locked: %s",
                response.raw().body()).isLessThan(ANSWER_MAX);
        return response;
    }

    private static void closeQuietly(DataSource dataSource) {
        if (dataSource instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // the test's own small pool; the database is dropped with the server
            }
        }
    }
}
