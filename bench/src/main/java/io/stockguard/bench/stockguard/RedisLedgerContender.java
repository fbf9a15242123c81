package io.stockguard.bench.stockguard;

import io.micrometer.core.instrument.Counter;
import io.stockguard.journal.JournalProgress;
import io.stockguard.bench.Catalogue;
import io.stockguard.platform.Actor;
import io.stockguard.platform.Caller;
import io.stockguard.hotstore.HotStore;
import io.stockguard.stock.SkuId;
import io.stockguard.testkit.TestDatabase;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.concurrent.locks.LockSupport;

/**
 * StockGuard's Redis ledger (the standard tier) in this JVM, through the service's own code path:
 * every reservation runs the service's Lua scripts in Redis and is group-committed to the
 * database journal before it is acknowledged. Before each run the hot store is emptied, the
 * catalogue written to the database, and every SKU loaded into Redis by the service's own preheat,
 * so a run meets a prepared sale. The database stays the source of truth the counts are read from.
 */
public class RedisLedgerContender extends LedgerContender {

    private static final Caller OPERATOR = new Caller(new Actor(Actor.Kind.ADMIN_KEY, "bench"), null);
    /** Longest a preheat may take: 100,000 SKUs, one database transaction each, on a busy machine. */
    private static final Duration PREHEAT_WAIT_MAX = Duration.ofMinutes(15);
    /** The service re-reads which SKUs the hot store may serve every second (HotStoreRouting). */
    private static final Duration ROUTING_REFRESH = Duration.ofMillis(1_500);
    /** Above this many SKUs the hot store is not compared with the database after each run (slow). */
    private static final int COMPARED_SKUS_MAX = 1_000;

    private final HotStoreRedis redis;
    private Catalogue catalogue;
    private double byRedisBefore;
    private double byDatabaseBefore;
    private long shortfallsBefore;
    private long waitsBefore;
    private boolean databaseServedLastRun;

    /**
     * @param redis the Redis the hot store runs on; its replica count is the service's
     *     {@code stockguard.redis.wait-replicas}: with replicas, every reservation waits for them
     */
    public RedisLedgerContender(String name, String description, Supplier<TestDatabase> databases,
            HotStoreRedis redis, Map<String, String> settings, Transport transport) {
        super(name, description, databases, settings, transport);
        this.redis = redis;
    }

    @Override
    protected Map<String, String> settings() {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("stockguard.ledger", "redis");
        all.put("stockguard.redis.url", redis.url());
        all.put("stockguard.redis.wait-replicas", Integer.toString(redis.replicaCount()));
        all.putAll(super.settings());
        return all;
    }

    @Override
    public void load(Catalogue catalogue) throws Exception {
        if (service != null) {
            // Before the database is emptied: nothing may be sold from the last run's hot state.
            redis.flush();
        }
        super.load(catalogue);
    }

    /** Preheats every SKU and waits until replicas (if any) have it all. */
    @Override
    protected void prepare(Catalogue catalogue) throws Exception {
        this.catalogue = catalogue;
        preheat(catalogue);
        redis.awaitReplicas();
        if (databaseServedLastRun) {
            // The service may still hold the last run's SKUs as untrusted until its next refresh.
            LockSupport.parkNanos(ROUTING_REFRESH.toNanos());
        }
        byRedisBefore = reservesBy("redis");
        byDatabaseBefore = reservesBy("database");
        shortfallsBefore = shortWaits();
        waitsBefore = redis.replicaCount() > 0 ? redis.calls("wait") : 0;
    }

    /**
     * Preheats and waits for it: up to {@link #PREHEAT_WAIT_MAX}, and no longer once the bench is
     * closing this contender (Ctrl-C, SIGTERM) or the thread is interrupted.
     */
    private void preheat(Catalogue catalogue) {
        HotStore hotStore = service.getBean(HotStore.class);
        hotStore.preheat(OPERATOR);
        long deadline = System.nanoTime() + PREHEAT_WAIT_MAX.toNanos();
        HotStore.PreheatStatus status = hotStore.preheatStatus();
        while (status.state().equals("RUNNING") && System.nanoTime() < deadline) {
            if (isClosed() || Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException(name() + ": stopped waiting for the preheat, the bench is stopping");
            }
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
            status = hotStore.preheatStatus();
        }
        if (!status.state().equals("DONE") || status.loaded() != catalogue.size()) {
            throw new IllegalStateException(name() + ": the preheat did not load the catalogue of " + catalogue.size()
                    + " SKUs: " + status);
        }
    }

    /** Reservations the ledger served on this path ({@code redis}, or {@code database} as fallback) so far. */
    /** Replica waits of the last run that came back with fewer replicas than asked for. */
    public long shortWaitsLastRun() {
        return shortWaits() - shortfallsBefore;
    }

    private long shortWaits() {
        Counter counter = meters().find("stockguard.redis.replica.short-waits").counter();
        return counter == null ? 0 : Math.round(counter.count());
    }

    private double reservesBy(String path) {
        Counter counter = meters().find("stockguard.ledger.path").tags("op", "reserve", "path", path).counter();
        return counter == null ? 0 : counter.count();
    }

    /** Longest wait for the journal to be applied before a run's stock is counted. */
    private static final Duration APPLIED_WAIT_MAX = Duration.ofMinutes(5);

    /**
     * Both Redis tiers apply their journal to the database behind the answer: the run's stock is
     * counted, and its acknowledgements looked for, once everything journaled is applied.
     */
    protected void awaitJournalApplied() {
        if (!service.getBean(JournalProgress.class).awaitAllApplied(APPLIED_WAIT_MAX)) {
            throw new IllegalStateException(name() + ": the journal was not applied to the database within "
                    + APPLIED_WAIT_MAX);
        }
    }

    @Override
    public long[] remaining(Catalogue catalogue) throws SQLException {
        awaitJournalApplied();
        return super.remaining(catalogue);
    }

    @Override
    public long acknowledgedMissingFromDatabase() throws SQLException {
        awaitJournalApplied();
        return super.acknowledgedMissingFromDatabase();
    }

    /**
     * Units by which the hot store's available stock differs from the database's, summed over the
     * catalogue's SKUs: 0 once every acknowledged reservation is journaled, as it must be.
     */
    public long hotStoreDifference(Catalogue catalogue) throws SQLException {
        HotStore hotStore = service.getBean(HotStore.class);
        long[] stored = remaining(catalogue);
        long difference = 0;
        for (int i = 0; i < stored.length; i++) {
            long hot = hotStore.snapshot(SkuId.of(catalogue.skus().get(i))).map(snapshot -> snapshot.buckets().stream()
                    .mapToLong(HotStore.HotBucket::available).sum()).orElse(-1L);
            difference += Math.abs(hot - stored[i]);
        }
        return difference;
    }

    /** Reservations of the last run that fell back to the database path (the hot store did not serve them). */
    public long servedByDatabase() {
        return Math.round(reservesBy("database") - byDatabaseBefore);
    }

    /** Replicas each reservation waits for (Redis {@code WAIT}); 0 for none. */
    public int waitReplicas() {
        return redis.replicaCount();
    }

    /**
     * {@code WAIT} commands Redis ran in the last run: the service shares one among the changes made
     * while the previous one ran, so at most one per acknowledged reservation, and far fewer under
     * load. (The bench's own, before a run, are not counted.)
     */
    public long replicaWaits() {
        return redis.replicaCount() == 0 ? 0 : redis.calls("wait") - waitsBefore;
    }

    @Override
    public String notes() {
        List<String> notes = new ArrayList<>(List.of(super.notes()));
        long byDatabase = servedByDatabase();
        databaseServedLastRun = byDatabase > 0;
        notes.add(String.format(Locale.ROOT, "%.0f by Redis, %d by the database fallback",
                reservesBy("redis") - byRedisBefore, byDatabase));
        if (redis.replicaCount() > 0) {
            notes.add(replicaWaits() + " WAITs, " + shortWaitsLastRun() + " short of the replicas");
        }
        if (catalogue != null && catalogue.size() <= COMPARED_SKUS_MAX) {
            try {
                long difference = hotStoreDifference(catalogue);
                notes.add(difference == 0 ? "hot store = database" : "hot store DIFFERS from the database by "
                        + difference + " units");
            } catch (SQLException | RuntimeException e) {
                notes.add("hot store not compared: " + e.getMessage());
            }
        }
        return String.join(", ", notes);
    }

    /** Stops the service, then its Redis if the contender started it; safe to call again. */
    @Override
    public void close() {
        super.close();
        redis.close();
    }
}
