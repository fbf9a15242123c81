package io.stockguard.journal.jdbc;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.stockguard.journal.AppendFence;
import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventApplier;
import io.stockguard.journal.EventCodec;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.journal.SynchronousJournal;
import io.stockguard.platform.Combiner;
import io.stockguard.platform.QueryPipeline;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.stock.OrderId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The standard tier's journal: a change is durable, and may be acknowledged, once its entry is
 * committed to the {@code journal_entry} table; the {@link AppendedJournalApplier} brings the
 * ledger tables up to date behind the answer. Concurrent callers share one commit (one entry each,
 * inserted together), the way the database tier's combiner shares its transactions: what a
 * reservation waits for is one small insert, not the ledger's reads and writes.
 *
 * <p>In the same transaction, after taking the entries' numbers, the append reads who sells each
 * SKU ({@link AppendFence}): a hot store that has been taken over is refused before it is
 * acknowledged, as the database refused it when the journal applied before answering. A
 * reservation of an order the database already has (the hot store lost its records) is applied
 * at once, strictly, so its caller hears the order the database has.
 *
 * <p>Observed: each caller's wait as {@code stockguard.journal.record} ({@code journal=database}),
 * each shared commit as {@code stockguard.journal.append}, a child of the caller that led it.
 */
final class AppendedJournal implements DurableJournal {

    static final String APPEND_OBSERVATION = "stockguard.journal.append";

    /** One caller's share of a shared commit. */
    private record Share(List<EventOutcome> outcomes, RuntimeException failure) {
    }

    private final TransactionTemplate transactions;
    private final JdbcTemplate jdbc;
    private final SqlStatements sql;
    private final SqlDialect dialect;
    private final AppendFence fence;
    private final EventApplier applier;
    private final EventCodec codec = new EventCodec();
    private final Combiner<List<StockEvent>, Share> combiner;
    private final Duration waitMax;
    private final Runnable appended;
    private final ObservationRegistry observations;
    private final Counter fenced;

    /**
     * @param entriesPerCommitMax callers whose entries share one commit, at most
     * @param waitMax how long a caller waits for a commit to take its entry
     * @param appended told after each commit (wakes this instance's applier)
     */
    AppendedJournal(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements sql, SqlDialect dialect,
            AppendFence fence, EventApplier applier, int entriesPerCommitMax, Duration waitMax, Runnable appended, MeterRegistry meters,
            ObservationRegistry observations) {
        this.transactions = transactions;
        this.jdbc = jdbc;
        this.sql = sql;
        this.dialect = dialect;
        this.fence = fence;
        this.applier = applier;
        this.waitMax = waitMax;
        this.appended = appended;
        this.observations = observations;
        this.combiner = new Combiner<>(entriesPerCommitMax, this::commit);
        this.fenced = Counter.builder("stockguard.journal.fenced")
                .description("changes of a hot store taken over, refused while being journaled").register(meters);
    }

    @Override
    public List<EventOutcome> record(List<StockEvent> events) {
        if (events.isEmpty()) {
            return List.of();
        }
        Observation observation = Observation.createNotStarted(SynchronousJournal.RECORD_OBSERVATION, observations)
                .lowCardinalityKeyValue(SynchronousJournal.JOURNAL_KEY, "database")
                .highCardinalityKeyValue(SynchronousJournal.EVENTS_KEY, Integer.toString(events.size())).start();
        try (Observation.Scope ignored = observation.openScope()) {
            Share share = combiner.submit(events, waitMax);
            if (share == null) {
                throw new JournalUnavailableException("the database journal did not take the events in time", false,
                        null);
            }
            if (share.failure() != null) {
                throw share.failure() instanceof JournalUnavailableException unavailable ? unavailable
                        : new JournalUnavailableException(share.failure().getMessage(), false, share.failure());
            }
            return share.outcomes();
        } catch (RuntimeException e) {
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
    }

    private void commit(List<Combiner.Pending<List<StockEvent>, Share>> batch) {
        List<StockEvent> all = new ArrayList<>();
        batch.forEach(pending -> all.addAll(pending.request));
        Observation observation = Observation.createNotStarted(APPEND_OBSERVATION, observations)
                .lowCardinalityKeyValue(SynchronousJournal.JOURNAL_KEY, "database")
                .highCardinalityKeyValue(SynchronousJournal.EVENTS_KEY, Integer.toString(all.size())).start();
        List<EventOutcome> decided;
        try {
            decided = transactions.execute(status -> append(batch, all));
        } catch (RuntimeException e) {
            observation.error(e);
            fail(batch, JournalUnavailableException.fromDatabase(e));
            return;
        } finally {
            observation.stop();
        }
        appended.run();
        int from = 0;
        for (var pending : batch) {
            List<EventOutcome> outcomes = new ArrayList<>(pending.request.size());
            for (int i = 0; i < pending.request.size(); i++) {
                EventOutcome outcome = decided.get(from + i);
                outcomes.add(outcome == null ? EventOutcome.Settled.QUEUED : outcome);
            }
            from += pending.request.size();
            pending.complete(new Share(outcomes, null));
        }
    }

    /**
     * Takes one number per caller under the numbering lock (entries commit in number order, and a
     * take-over waits for this append), reads who sells and which orders the database has, and
     * inserts one entry per caller: what is not refused, or nothing (an empty entry keeps the
     * numbers gap-free) when all of it was refused or is applied now. A caller reserving for an
     * order the database already has is applied now, strictly. Returns each event's outcome, in
     * order; null for one appended.
     *
     * <p>On PostgreSQL all of that is one round trip, the entries written as if nothing would be
     * refused (the fence's reads run after the numbering lock is taken, each with its own snapshot,
     * so they see any take-over that committed before); the rare entry that the fence or an order
     * the database has changes is rewritten before the commit. With the commit that makes two
     * trips per append, where reading first and writing after made four: with the database a
     * millisecond away, most of a reservation's time. Elsewhere the statements go one by one, and
     * the entries are written once decided.
     */
    private List<EventOutcome> append(List<Combiner.Pending<List<StockEvent>, Share>> batch, List<StockEvent> all) {
        boolean together = dialect == SqlDialect.POSTGRESQL;
        long[] last = {0};
        QueryPipeline trip = new QueryPipeline(jdbc, dialect)
                .change(sql.get("takeNumbers"), Map.of("count", batch.size()), 1)
                .add(sql.get("lastNumber"), Map.of(), rs -> {
                    last[0] = rs.getLong("seq");
                });
        AppendFence.Check check = fence.read(trip, all);
        if (together) {
            byte[][] events = batch.stream().map(pending -> codec.encodeAll(pending.request)).toArray(byte[][]::new);
            trip.change(sql.get("appendEntries"), Map.of("count", batch.size(),
                    "events", new QueryPipeline.SqlArray("bytea", events)), batch.size());
        }
        trip.run();
        List<EventOutcome.Rejected> refusals = check.refusals();
        Set<OrderId> known = check.knownOrders();
        List<EventOutcome> outcomes = new ArrayList<>(refusals);
        List<Entry> entries = new ArrayList<>(batch.size());
        long seq = last[0] - batch.size();
        int from = 0;
        for (var pending : batch) {
            seq++;
            List<StockEvent> kept = new ArrayList<>(pending.request.size());
            List<Integer> at = new ArrayList<>(pending.request.size());
            for (StockEvent event : pending.request) {
                if (refusals.get(from) == null) {
                    kept.add(event);
                    at.add(from);
                } else {
                    fenced.increment();
                }
                from++;
            }
            if (kept.stream().anyMatch(e -> e.op() == StockOp.RESERVE && known.contains(e.orderId()))) {
                List<EventOutcome> applied = applier.apply(kept, true);
                for (int i = 0; i < kept.size(); i++) {
                    outcomes.set(at.get(i), applied.get(i));
                }
                kept = List.of();
            }
            if (!together || kept.size() != pending.request.size()) {
                entries.add(new Entry(seq, codec.encodeAll(kept)));
            }
        }
        if (!entries.isEmpty()) {
            // Written once decided (MariaDB), or rewritten where the check took events out (PostgreSQL).
            jdbc.batchUpdate(sql.get(together ? "rewriteEntry" : "appendEntry"), entries, entries.size(), (ps, entry) -> {
                ps.setBytes(1, entry.events());
                ps.setLong(2, entry.seq());
            });
        }
        return outcomes;
    }

    private record Entry(long seq, byte[] events) {
    }

    private static void fail(List<Combiner.Pending<List<StockEvent>, Share>> batch, RuntimeException failure) {
        batch.forEach(pending -> pending.complete(new Share(null, failure)));
    }
}
