package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TcpProxy;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The second wave of a sale is stock queries. When the database stops answering (a pause, a
 * failover) the stock of a SKU the hot store owns is still in Redis, so its product page must
 * keep answering, with the counters right, instead of stalling for as long as the database does
 * (I9). Measured by the time each read takes, against a database held {@link #STALL} behind. What
 * only the database can answer gets a 503 to retry, within the connection timeout.
 */
class StockReadsWhileTheDatabaseStallsIT {

    private static final Duration STALL = Duration.ofSeconds(8);
    /** Far under the stall, far over a read from Redis on a busy machine. */
    private static final Duration ANSWER_MAX = Duration.ofMillis(1_500);
    /** Reads long enough to outlive the details kept from the database (a second) several times. */
    private static final Duration READING = Duration.ofSeconds(4);

    @Test
    void aHotSkusStockIsAnsweredFromRedisWhileTheDatabaseStalls() {
        TestDatabase direct = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        try (RedisServer redis = RedisServer.start();
                TcpProxy proxy = TcpProxy.to(direct.port());
                RunningService service = RunningService.startRedis(direct.atPort(proxy.port()), redis.uri(), false,
                        Map.of("stockguard.reconciliation.enabled", "false"))) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("page");
            assertThat(client.putSku(sku, 50, 2).status()).isEqualTo(201);
            assertThat(client.reserve(Ids.order("before"), new StockGuardClient.Line(sku, 3)).status()).isEqualTo(201);
            assertThat(client.sku(sku).text("mode")).isEqualTo("NORMAL");

            proxy.delay(STALL);
            try {
                List<Long> millis = new ArrayList<>();
                long end = System.nanoTime() + READING.toNanos();
                while (System.nanoTime() < end) {
                    long started = System.nanoTime();
                    StockGuardClient.Response stock = client.sku(sku);
                    millis.add((System.nanoTime() - started) / 1_000_000);
                    assertThat(stock.status()).as(stock.raw().body()).isEqualTo(200);
                    assertThat(stock.number("available")).isEqualTo(47);
                    assertThat(stock.number("reserved")).isEqualTo(3);
                    assertThat(stock.text("mode")).isEqualTo("NORMAL");
                }
                assertThat(millis).as("each stock read, in ms, while the database is %s behind", STALL)
                        .allSatisfy(ms -> assertThat(ms).isLessThan(ANSWER_MAX.toMillis()));

                // A SKU only the database knows: a clear "retry", not an internal error.
                long started = System.nanoTime();
                StockGuardClient.Response unknown = client.sku(Ids.sku("never-read"));
                assertThat(unknown.status()).as(unknown.raw().body()).isEqualTo(503);
                assertThat(unknown.code()).isEqualTo("UNAVAILABLE");
                assertThat(unknown.raw().headers().firstValue("Retry-After")).hasValue("1");
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(STALL);
            } finally {
                proxy.delay(Duration.ZERO);
            }
        }
    }
}
