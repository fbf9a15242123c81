package io.stockguard.bench.stockguard;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.stockguard.bench.Catalogue;
import io.stockguard.journal.JournalProgress;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * StockGuard's full tier in this JVM: the Redis ledger as in {@link RedisLedgerContender}, with
 * Kafka as its journal ({@code stockguard.journal=kafka}). A reservation is acknowledged once Kafka
 * has its events; the service's journal writer applies them to the database afterwards. The Kafka
 * is one KRaft broker the contender starts on first use (a process, like the other servers) and
 * stops when it closes.
 *
 * <p>The database is behind Kafka by the writer's lag, so before the run's stock is counted the
 * contender waits until the journal is applied ({@link JournalProgress#awaitAllApplied}); the counts
 * and checks are then the same as for the other StockGuard contenders. The run's notes give the
 * journal apply lag ({@code stockguard.journal.apply.lag}: from the change in the hot store to its
 * application in the database) at p50/p99 over the run, and how long the drain after it took.
 */
public final class KafkaLedgerContender extends RedisLedgerContender {

    /** Longest wait for the writer to apply a run's backlog before the stock is counted. */
    private static final Duration APPLIED_WAIT_MAX = Duration.ofMinutes(5);
    static final String APPLY_LAG = "stockguard.journal.apply.lag";

    private KafkaCluster kafka;
    private CountAtBucket[] lagBefore;
    private long lagCountBefore;
    private double byKafkaBefore;
    private double byDatabaseJournalBefore;
    private Duration lastDrain;
    private boolean drained;
    private Lag lastLag;

    public KafkaLedgerContender(String name, String description, Supplier<TestDatabase> databases,
            HotStoreRedis redis, Map<String, String> settings, Transport transport) {
        super(name, description, databases, redis, settings, transport);
    }

    /** The Kafka settings of a one-broker full tier, as the service's own tests start it (RunningService.startFull). */
    @Override
    protected Map<String, String> settings() {
        Map<String, String> all = new LinkedHashMap<>(super.settings());
        all.put("stockguard.journal", "kafka");
        all.put("stockguard.kafka.bootstrap-servers", kafka().bootstrapServers());
        all.put("stockguard.kafka.topic", "stockguard.bench." + UUID.randomUUID());
        all.put("stockguard.kafka.partitions", "4");
        all.put("stockguard.kafka.replication-factor", "1");
        all.put("stockguard.kafka.min-insync-replicas", "1");
        // Two cores run the clients, the service, Kafka, PostgreSQL and Redis: generous bounds keep
        // a stall of the machine from reading as a Kafka failure (the fallback is counted in the notes).
        all.put("stockguard.kafka.produce-timeout", "5s");
        all.put("stockguard.kafka.request-timeout", "4s");
        return all;
    }

    private synchronized KafkaCluster kafka() {
        if (isClosed()) {
            throw new IllegalStateException(name() + " is closed: no Kafka is started for it");
        }
        if (kafka == null) {
            kafka = KafkaCluster.single();
        }
        return kafka;
    }

    @Override
    protected void prepare(Catalogue catalogue) throws Exception {
        super.prepare(catalogue);
        Timer lag = lagTimer();
        lagBefore = lag == null ? new CountAtBucket[0] : lag.takeSnapshot().histogramCounts();
        lagCountBefore = lag == null ? 0 : lag.count();
        byKafkaBefore = journaledBy("kafka");
        byDatabaseJournalBefore = journaledBy("database");
        drained = false;
        lastDrain = null;
    }

    /** Waits until the journal is applied to the database, then counts as the other contenders do. */
    @Override
    public long[] remaining(Catalogue catalogue) throws java.sql.SQLException {
        awaitApplied();
        return super.remaining(catalogue);
    }

    private void awaitApplied() {
        if (drained) {
            return;
        }
        long started = System.nanoTime();
        if (!service.getBean(JournalProgress.class).awaitAllApplied(APPLIED_WAIT_MAX)) {
            throw new IllegalStateException(name() + ": the journal was not applied to the database within "
                    + APPLIED_WAIT_MAX);
        }
        lastDrain = Duration.ofNanos(System.nanoTime() - started);
        drained = true;
        lastLag = lagSinceRun();
    }

    private Timer lagTimer() {
        return meters().find(APPLY_LAG).timer();
    }

    /** Events the service journaled on this path since the run began: {@code kafka}, or {@code database} as fallback. */
    private double journaledBy(String path) {
        Counter counter = meters().find("stockguard.journal.path").tags("path", path).counter();
        return counter == null ? 0 : counter.count();
    }

    /** The apply lag of the events applied since {@link #prepare}, from the timer's histogram buckets. */
    private Lag lagSinceRun() {
        Timer timer = lagTimer();
        if (timer == null) {
            return null;
        }
        CountAtBucket[] now = timer.takeSnapshot().histogramCounts();
        long count = timer.count() - lagCountBefore;
        return Lag.of(lagBefore, now, count);
    }

    /** The last run's journal apply lag, or null if none was measured. */
    public Lag lastLag() {
        return lastLag;
    }

    @Override
    public String notes() {
        List<String> notes = new ArrayList<>(List.of(super.notes()));
        notes.add(String.format(Locale.ROOT, "%.0f events journaled to Kafka, %.0f to the database fallback",
                journaledBy("kafka") - byKafkaBefore, journaledBy("database") - byDatabaseJournalBefore));
        if (lastLag != null) {
            notes.add(lastLag.toString());
        }
        if (lastDrain != null) {
            notes.add(String.format(Locale.ROOT, "journal applied %.2f s after the run", lastDrain.toNanos() / 1e9));
        }
        return String.join(", ", notes);
    }

    /** Stops the service before the broker its producers talk to; safe to call again. */
    @Override
    public void close() {
        super.close();
        synchronized (this) {
            if (kafka != null) {
                kafka.close();
                kafka = null;
            }
        }
    }

    /**
     * Journal apply lag over one run: percentiles read off the timer's histogram (bucket upper bounds,
     * so "at most"), from the difference of two snapshots.
     */
    public record Lag(long events, double p50Millis, double p99Millis, double p999Millis) {

        static Lag of(CountAtBucket[] before, CountAtBucket[] after, long events) {
            if (events <= 0 || after.length == 0) {
                return new Lag(Math.max(events, 0), 0, 0, 0);
            }
            // Cumulative counts per upper bound (Prometheus-style "le" buckets); the run's own are the difference.
            double[] bounds = new double[after.length];
            double[] counts = new double[after.length];
            for (int i = 0; i < after.length; i++) {
                bounds[i] = after[i].bucket(TimeUnit.MILLISECONDS);
                double previous = 0;
                for (CountAtBucket b : before) {
                    if (b.bucket() == after[i].bucket()) {
                        previous = b.count();
                        break;
                    }
                }
                counts[i] = after[i].count() - previous;
            }
            boolean cumulative = true;
            for (int i = 1; i < counts.length; i++) {
                if (counts[i] < counts[i - 1]) {
                    cumulative = false;
                    break;
                }
            }
            if (!cumulative) {
                for (int i = 1; i < counts.length; i++) {
                    counts[i] += counts[i - 1];
                }
            }
            return new Lag(events, at(bounds, counts, events, 0.50), at(bounds, counts, events, 0.99),
                    at(bounds, counts, events, 0.999));
        }

        /** The least bucket bound holding the fraction of the events; infinity past the last bucket. */
        private static double at(double[] bounds, double[] cumulative, long events, double fraction) {
            double wanted = Math.ceil(events * fraction);
            for (int i = 0; i < bounds.length; i++) {
                if (cumulative[i] >= wanted) {
                    return bounds[i];
                }
            }
            return Double.POSITIVE_INFINITY;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "journal apply lag p50 <= %.1f ms, p99 <= %.1f ms, p99.9 <= %.1f ms "
                    + "(%d events)", p50Millis, p99Millis, p999Millis, events);
        }
    }
}
