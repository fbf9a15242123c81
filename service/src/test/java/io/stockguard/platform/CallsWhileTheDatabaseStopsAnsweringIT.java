package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TcpProxy;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A database that stops answering without closing its connections (a paused process, a network
 * that drops packets) cannot end a statement itself: its statement timeout never fires. A call
 * that needs it must still get a clear 503 within the driver's socket timeout, not wait for as
 * long as the database is gone (I9), and a retry with the same ids afterwards must find the change
 * made exactly once or not at all. The database is held {@link #STALL} behind a proxy; before the
 * socket timeout the calls here took twice that.
 */
class CallsWhileTheDatabaseStopsAnsweringIT {

    private static final Duration STALL = Duration.ofSeconds(30);
    private static final Map<String, String> TIMEOUTS = Map.of("stockguard.database.statement-timeout", "1s",
            "stockguard.database.socket-timeout", "3s", "stockguard.reconciliation.ledger-check-timeout", "1s",
            "stockguard.reconciliation.enabled", "false");
    /** The socket timeout, a connection attempt's own bound and a busy machine's slack; far under the stall. */
    private static final Duration ANSWER_MAX = Duration.ofSeconds(12);

    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void aReservationOnTheDatabaseTierIsAnswered503WithinTheSocketTimeout(TestDatabase.Kind kind) {
        TestDatabase direct = TestDatabase.fresh(kind);
        try (TcpProxy proxy = TcpProxy.to(direct.port());
                RunningService service = RunningService.start(direct.atPort(proxy.port()), TIMEOUTS)) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("stalled-db");
            assertThat(client.putSku(sku, 50, 2).status()).isEqualTo(201);
            String order = Ids.order("stalled-db");

            proxy.delay(STALL);
            StockGuardClient.Response during = timed(() -> client.reserve(order, new StockGuardClient.Line(sku, 3)));
            proxy.delay(Duration.ZERO);

            assertThat(during.status()).as(during.raw().body()).isEqualTo(503);
            assertThat(during.code()).isIn("UNAVAILABLE", "OUTCOME_UNKNOWN");
            assertThat(during.raw().headers().firstValue("Retry-After")).isPresent();
            // New connections pass at once; the retry finds the order made once or not at all.
            StockGuardClient.Response retry = awaitAnswered(() -> client.reserve(order,
                    new StockGuardClient.Line(sku, 3)));
            assertThat(retry.status()).as(retry.raw().body()).isIn(200, 201);
            StockGuardClient.Response stock = client.sku(sku);
            assertThat(stock.number("available")).isEqualTo(47);
            assertThat(stock.number("reserved")).isEqualTo(3);
        }
    }

    @Test
    void aRestockOnTheRedisTierIsAnswered503WithinTheSocketTimeoutAndAppliedAtMostOnce() {
        TestDatabase direct = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        try (RedisServer redis = RedisServer.start();
                TcpProxy proxy = TcpProxy.to(direct.port());
                RunningService service = RunningService.startRedis(direct.atPort(proxy.port()), redis.uri(), false,
                        TIMEOUTS)) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("stalled-restock");
            assertThat(client.putSku(sku, 50, 2).status()).isEqualTo(201);
            // Its first reservation loads the SKU into Redis, which then answers its stock reads.
            assertThat(client.reserve(Ids.order("load"), new StockGuardClient.Line(sku, 3)).status()).isEqualTo(201);
            assertThat(client.sku(sku).text("mode")).isEqualTo("NORMAL");
            Map<String, Object> restock = Map.of("qty", 10, "requestId", Ids.order("restock"));

            proxy.delay(STALL);
            StockGuardClient.Response during = timed(() -> client.send("POST", "/api/v1/skus/" + sku + "/restock",
                    restock));
            // What Redis alone answers still answers while the database is gone.
            StockGuardClient.Response page = client.sku(sku);
            proxy.delay(Duration.ZERO);

            assertThat(during.status()).as(during.raw().body()).isEqualTo(503);
            assertThat(during.code()).isIn("UNAVAILABLE", "OUTCOME_UNKNOWN");
            assertThat(page.status()).as(page.raw().body()).isEqualTo(200);
            assertThat(page.number("available")).as("the failed restock undone in Redis").isEqualTo(47);
            StockGuardClient.Response retry = awaitAnswered(() -> client.send("POST", "/api/v1/skus/" + sku
                    + "/restock", restock));
            assertThat(retry.status()).as(retry.raw().body()).isEqualTo(200);
            StockGuardClient.Response after = client.sku(sku);
            assertThat(after.number("total")).as("restocked once by the request and its retry").isEqualTo(60);
            assertThat(after.number("available")).isEqualTo(57);
        }
    }

    /** Sends the call and requires its answer, whatever it is, within {@link #ANSWER_MAX}. */
    private static StockGuardClient.Response timed(Supplier<StockGuardClient.Response> call) {
        long started = System.nanoTime();
        StockGuardClient.Response response = call.get();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the time to answer with the database %s "
                + "behind: %s", STALL, response.raw().body()).isLessThan(ANSWER_MAX);
        return response;
    }

    /** Repeats the call until it is no longer 503: the pool's broken connections are replaced first. */
    private static StockGuardClient.Response awaitAnswered(
            Supplier<StockGuardClient.Response> call) {
        StockGuardClient.Response[] last = {null};
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            last[0] = call.get();
            return last[0].status() != 503;
        });
        return last[0];
    }
}
