package io.stockguard.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Keeps a steady stream of reservations (one unit each, every fifth one cancelled right after)
 * going against one SKU while a test breaks things, and remembers what every client was told, so
 * the stored state can be checked against it afterwards.
 */
public final class LoadDriver implements AutoCloseable {

    /** What the clients were told about one order. */
    /**
     * @param cancelInDoubt a cancel was sent and got no definite answer (no answer, or a 5xx other
     *     than UNAVAILABLE): it may or may not have happened
     */
    public record Told(boolean acknowledged, boolean cancelled, boolean cancelInDoubt) {
    }

    /** How long the load may get no acknowledgement before a wait for acknowledgements fails. */
    private static final Duration ACKNOWLEDGEMENT_STALL_MAX = Duration.ofSeconds(60);

    private final List<StockGuardClient> clients;
    private final AtomicInteger workerIds = new AtomicInteger();
    private final String sku;
    private final String prefix;
    private final ExecutorService pool;
    private final List<Future<?>> workers = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger next = new AtomicInteger();
    private final Map<String, Told> told = new ConcurrentHashMap<>();
    /** Orders answered 503 UNAVAILABLE: certainly not applied, so they must not be stored. */
    private final java.util.Set<String> notApplied = ConcurrentHashMap.newKeySet();
    private final Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();

    public LoadDriver(StockGuardClient client, String sku, int threads) {
        this(List.of(client), sku, threads);
    }

    /**
     * Spreads the threads over several instances. A request that gets no answer (its instance
     * died) is sent again, with the same order id, to the next instance, as a client with a
     * retry policy would.
     */
    public LoadDriver(List<StockGuardClient> clients, String sku, int threads) {
        this.clients = List.copyOf(clients);
        this.sku = sku;
        this.prefix = Ids.order("load") + "-";
        this.pool = Executors.newFixedThreadPool(threads);
        for (int i = 0; i < threads; i++) {
            workers.add(pool.submit(this::work));
        }
    }

    private void work() {
        int home = workerIds.getAndIncrement() % clients.size();
        while (running.get()) {
            int n = next.getAndIncrement();
            String order = prefix + n;
            StockGuardClient.Response reserved = send(home, c -> c.reserve(order, new StockGuardClient.Line(sku, 1)));
            if (reserved != null && "UNAVAILABLE".equals(reserved.code())) {
                notApplied.add(order);
            }
            if (reserved == null || !reserved.ok()) {
                continue;
            }
            told.put(order, new Told(true, false, false));
            if (n % 5 == 0) {
                StockGuardClient.Response cancelled = send(home, c -> c.cancel(order));
                if (cancelled != null && cancelled.ok()) {
                    told.put(order, new Told(true, true, false));
                } else if (cancelled == null || (cancelled.status() >= 500 && !"UNAVAILABLE".equals(cancelled.code()))) {
                    told.put(order, new Told(true, false, true));
                }
            }
        }
    }

    private StockGuardClient.Response send(int home,
            java.util.function.Function<StockGuardClient, StockGuardClient.Response> request) {
        for (int i = 0; i < clients.size(); i++) {
            try {
                StockGuardClient.Response response = request.apply(clients.get((home + i) % clients.size()));
                statuses.computeIfAbsent(response.status(), k -> new AtomicLong()).incrementAndGet();
                return response;
            } catch (RuntimeException e) {
                statuses.computeIfAbsent(-1, k -> new AtomicLong()).incrementAndGet();
            }
        }
        return null;
    }

    public long requests() {
        return statuses.values().stream().mapToLong(AtomicLong::get).sum();
    }

    public long count(int status) {
        return statuses.getOrDefault(status, new AtomicLong()).get();
    }

    public long serverErrors() {
        return statuses.entrySet().stream().filter(e -> e.getKey() >= 500 || e.getKey() < 0)
                .mapToLong(e -> e.getValue().get()).sum();
    }

    public Map<Integer, Long> statuses() {
        Map<Integer, Long> copy = new HashMap<>();
        statuses.forEach((status, count) -> copy.put(status, count.get()));
        return copy;
    }

    /** Stops the clients and waits for the requests in flight. */
    public void stop() throws Exception {
        running.set(false);
        for (Future<?> worker : workers) {
            worker.get(1, TimeUnit.MINUTES);
        }
        pool.shutdown();
    }

    /**
     * Every order a client was told is reserved is stored exactly once in the state it was told
     * (and has exactly one RESERVE in the journal); nothing else is stored.
     */
    public void assertStoredStateMatches(JdbcTemplate jdbc) {
        Map<String, String> stored = new HashMap<>();
        jdbc.query("SELECT order_id, state FROM reservation WHERE order_id LIKE ?",
                rs -> {
                    stored.put(rs.getString(1), rs.getString(2));
                }, prefix + "%");
        Map<String, Integer> reserves = new HashMap<>();
        jdbc.query("SELECT order_id, COUNT(*) FROM stock_event WHERE order_id LIKE ? AND op = 'RESERVE' "
                + "GROUP BY order_id", rs -> {
                    reserves.put(rs.getString(1), rs.getInt(2));
                }, prefix + "%");
        told.forEach((order, what) -> {
            assertThat(reserves.get(order)).as("RESERVE events of acknowledged order %s", order).isEqualTo(1);
            if (what.cancelInDoubt()) {
                assertThat(stored.get(order)).as("state of acknowledged order %s, its cancel in doubt", order)
                        .isIn("RESERVED", "CANCELLED");
            } else {
                String expected = what.cancelled() ? "CANCELLED" : "RESERVED";
                assertThat(stored.get(order)).as("state of acknowledged order %s", order).isEqualTo(expected);
            }
        });
        reserves.forEach((order, count) -> assertThat(count).as("RESERVE events of %s", order).isEqualTo(1));
        notApplied.forEach(order -> assertThat(reserves).as("order %s was answered UNAVAILABLE", order)
                .doesNotContainKey(order));
        stored.forEach((order, state) -> {
            if (!told.containsKey(order)) {
                // Not acknowledged (the client got an error): it may exist only if it was never
                // sold twice, and it must not hold stock that nobody was told about.
                assertThat(state).as("unacknowledged order %s", order).isIn("RESERVED", "CANCELLED", "EXPIRED");
            }
        });
    }

    public Map<String, Told> told() {
        return told;
    }

    public static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    /**
     * Waits until {@code atLeast} has passed since {@code startNanos} (the scenario's own timing,
     * a wait for the clock) and more than {@code acknowledged} orders were acknowledged in all.
     * How fast acknowledgements come depends on the machine, so that part lasts for as long as
     * they keep coming: a minute without one (longer than any fault a test injects) fails it.
     */
    public void awaitAcknowledged(long startNanos, Duration atLeast, long acknowledged) {
        long leftNanos = atLeast.toNanos() - (System.nanoTime() - startNanos);
        while (leftNanos > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(leftNanos);
            leftNanos = atLeast.toNanos() - (System.nanoTime() - startNanos);
        }
        Progress.awaitWhileGrowing("more than " + acknowledged + " acknowledged reservations (answers so far "
                + statuses() + ")", () -> told.size() > acknowledged, told::size, ACKNOWLEDGEMENT_STALL_MAX);
    }

    @Override
    public void close() throws Exception {
        if (running.get()) {
            stop();
        }
    }
}
