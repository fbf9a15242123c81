package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventIds;
import io.stockguard.testing.HotStoreChecks;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The post-mortem's preheat incident: 5,000 SKUs written one by one exhausted a Redis with too few
 * connections and took it down. Preheat goes in paced, pipelined batches over one connection, so a
 * Redis that allows only a handful of clients completes it and stays up, with progress visible.
 */
class PreheatIT {

    private static final int SKUS = 5_000;

    @Test
    void preheatOfFiveThousandSkusCompletesAgainstARedisWithFewConnectionsAndReportsProgress() throws Exception {
        try (RedisServer redis = RedisServer.start("--maxclients", "4");
                RunningService service = RunningService.startRedis(redis.uri(), false);
                HotStoreChecks hot = HotStoreChecks.standalone(redis.uri())) {
            String prefix = Ids.sku("preheat") + "-";
            createSkus(service.jdbc(), prefix);

            StockGuardClient admin = service.admin();
            StockGuardClient.Response started = admin.send("POST", "/api/v1/admin/preheat", null);
            assertThat(started.status()).isEqualTo(202);
            Set<Long> progress = service.awaitPreheatDone().stream().map(status -> status.number("total"))
                    .collect(java.util.stream.Collectors.toSet());

            StockGuardClient.Response done = admin.send("GET", "/api/v1/admin/preheat", null);
            assertThat(done.number("loaded") + done.number("present")).isEqualTo(SKUS);
            assertThat(done.number("failed")).isZero();
            assertThat(progress).as("progress seen between start and end").anyMatch(n -> n > 0 && n < SKUS);
            assertThat(redis.command("PING")).as("Redis stays up").isEqualTo("+PONG");
            for (int i = 0; i < SKUS; i += 997) {
                assertThat(hot.redis().hget("sg:{" + prefix + i + "}:b", "0:a")).as("SKU %d loaded", i).isEqualTo("3");
            }

            Process cli = new ProcessBuilder(Path.of("..").toAbsolutePath().normalize().resolve("stockguard").toString(),
                    "preheat", "--url=" + service.baseUrl(), "--key=" + RunningService.ADMIN_KEY)
                    .redirectErrorStream(true).start();
            String output = new String(cli.getInputStream().readAllBytes());
            assertThat(cli.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(cli.exitValue()).as(output).isZero();
            assertThat(output).contains("preheat DONE: " + SKUS + " SKUs").contains(SKUS + " already present");
        }
    }

    /** The catalogue is set up directly in the database, as an existing shop's would be. */
    private static void createSkus(JdbcTemplate jdbc, String prefix) {
        List<Object[]> skus = new ArrayList<>();
        List<Object[]> buckets = new ArrayList<>();
        List<Object[]> events = new ArrayList<>();
        for (int i = 0; i < SKUS; i++) {
            String sku = prefix + i;
            skus.add(new Object[] {sku});
            for (int b = 0; b < 2; b++) {
                buckets.add(new Object[] {sku, b});
                events.add(new Object[] {EventIds.next(), sku, b});
            }
        }
        jdbc.batchUpdate("INSERT INTO sku (sku_id, bucket_count, safety_stock, mode, created_at, updated_at) "
                + "VALUES (?, 2, 0, 'NORMAL', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)", skus);
        jdbc.batchUpdate("INSERT INTO stock_bucket (sku_id, bucket, available, reserved, sold, mode, applied_sum) "
                + "VALUES (?, ?, 3, 0, 0, 'NORMAL', 3)", buckets);
        jdbc.batchUpdate("INSERT INTO stock_event (event_id, sku_id, bucket, op, qty, delta_available, delta_reserved, "
                + "delta_sold, actor, occurred_at) VALUES (?, ?, ?, 'ADJUST', 3, 3, 0, 0, 'test', CURRENT_TIMESTAMP)",
                events);
    }
}
