package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.RedisCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Redis Cluster as shops run it, a replica per master, with the default settings (no replica
 * acknowledgement: WAIT is not available in a cluster), while clients sell a SKU out:
 * <ol>
 *   <li>its slot moves to another master, keys and all (clients hear ASK, then MOVED);</li>
 *   <li>a manual {@code CLUSTER FAILOVER} promotes the replica of the master serving it;</li>
 *   <li>the replica stops (so it misses sales), the master dies, and the replica is promoted with
 *       {@code CLUSTER FAILOVER TAKEOVER}: the post-mortem's failover, in a cluster.</li>
 * </ol>
 * Every order gets a definite answer, exactly the stock is sold (the sales the promoted replica
 * missed are in the database, and its copy, of another Redis history, is loaded again from it
 * before anything is sold: the history fence is what keeps a cluster's failover safe without
 * WAIT), each sale reads back, and the SKU goes back to Redis.
 */
class RedisClusterWithReplicasIT {

    /**
     * Enough stock to last through every step: once the slot moves, the database sells the SKU
     * until it is loaded again, and at its speed 1,500 units once sold out before the last step.
     */
    private static final int SUPPLY = 4_000;
    private static final int CLIENTS = 8;
    private static final Duration ANSWER_WAIT_MAX = Duration.ofSeconds(30);

    @Test
    void slotMigrationAndFailoversUnderLoadSellExactlyTheStock() throws Exception {
        try (RedisCluster cluster = RedisCluster.startWithReplicas();
                RunningService service = RunningService.startRedis(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                        cluster.uris(), true, Map.of("stockguard.reconciliation.enabled", "false"))) {
            StockGuardClient client = service.client();
            String sku = Ids.sku("cluster");
            assertThat(client.putSku(sku, SUPPLY, 4).status()).isEqualTo(201);
            int slot = cluster.slot("{" + sku + "}");

            Queue<String> sold = new ConcurrentLinkedQueue<>();
            Queue<String> problems = new ConcurrentLinkedQueue<>();
            AtomicBoolean soldOut = new AtomicBoolean();
            AtomicInteger next = new AtomicInteger();
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                clients.add(Thread.ofVirtual().start(() -> sell(client, sku, next, sold, problems, soldOut)));
            }

            awaitSales(sold, soldOut, 200, "before the slot moves");
            RedisServer first = cluster.masterOf(slot);
            RedisServer other = cluster.nodes().stream().limit(3).filter(node -> node != first).findFirst()
                    .orElseThrow();
            cluster.migrateSlot(slot, other);
            assertThat(cluster.masterOf(slot)).isSameAs(other);

            int afterMigration = sold.size();
            awaitSales(sold, soldOut, afterMigration + 200, "after the slot moved");
            RedisServer promoted = cluster.replicaOf(other);
            assertThat(promoted.command("CLUSTER", "FAILOVER")).isEqualTo("+OK");
            await().atMost(ANSWER_WAIT_MAX).until(() -> cluster.masterOf(slot) == promoted);

            int afterFailover = sold.size();
            awaitSales(sold, soldOut, afterFailover + 200, "after the failover");
            RedisServer behind = cluster.replicaOf(promoted);
            behind.pause();
            int whilePaused = sold.size();
            awaitSales(sold, soldOut, whilePaused + 100, "while the replica is paused");
            promoted.kill();
            behind.resume();
            assertThat(behind.command("CLUSTER", "FAILOVER", "TAKEOVER")).isEqualTo("+OK");
            await().atMost(ANSWER_WAIT_MAX).until(() -> cluster.masterOf(slot) == behind);

            for (Thread thread : clients) {
                assertThat(thread.join(Duration.ofSeconds(120))).as("every client finished").isTrue();
            }
            assertThat(problems).as("every order got a definite answer: a sale or out of stock").isEmpty();
            assertThat(sold).as("exactly the stock, each order once").hasSize(SUPPLY).doesNotHaveDuplicates();
            service.awaitJournalApplied(sku);
            LedgerChecks.assertNoOversell(service.jdbc(), sku, SUPPLY);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
            for (String order : List.copyOf(sold).subList(0, 50)) {
                assertThat(client.reservation(order).text("state")).as(order).isEqualTo("RESERVED");
            }
            await().atMost(ANSWER_WAIT_MAX).pollInterval(Duration.ofMillis(200)).until(() -> {
                assertThat(client.reserve(Ids.order("after"), new StockGuardClient.Line(sku, 1)).code())
                        .isEqualTo("INSUFFICIENT_STOCK");
                return "HOT".equals(service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?",
                        String.class, sku));
            });
        }
    }

    /** Waits for the sales a step needs; a sale that ended first leaves the step untested, and fails. */
    private static void awaitSales(Queue<String> sold, AtomicBoolean soldOut, int atLeast, String step) {
        await().atMost(ANSWER_WAIT_MAX).until(() -> soldOut.get() || sold.size() >= atLeast);
        assertThat(sold.size()).as("units sold %s (the stock must last through every step)", step)
                .isGreaterThanOrEqualTo(atLeast);
    }

    /** Sells one unit per new order, each retried with its id until a definite answer, until the SKU is sold out. */
    private static void sell(StockGuardClient client, String sku, AtomicInteger next, Queue<String> sold,
            Queue<String> problems, AtomicBoolean soldOut) {
        while (!soldOut.get()) {
            String order = sku + "-order-" + next.getAndIncrement();
            long deadline = System.nanoTime() + ANSWER_WAIT_MAX.toNanos();
            StockGuardClient.Response answer = client.reserve(order, new StockGuardClient.Line(sku, 1));
            while (answer.status() >= 500 && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
                answer = client.reserve(order, new StockGuardClient.Line(sku, 1));
            }
            if (answer.status() == 201 || answer.status() == 200) {
                sold.add(order);
            } else if ("INSUFFICIENT_STOCK".equals(answer.code())) {
                soldOut.set(true);
            } else {
                problems.add(order + ": " + answer.status() + " " + answer.raw().body());
                return;
            }
        }
    }
}
