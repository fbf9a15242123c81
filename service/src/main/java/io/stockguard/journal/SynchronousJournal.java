package io.stockguard.journal;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.stockguard.platform.Combiner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The standard tier's journal: the hot store's events are applied to the database before the
 * reservation is acknowledged (I2 without a queue). Concurrent callers are group-committed: the
 * events of everyone waiting are applied in one transaction, one commit for all.
 *
 * <p>Observed (docs/operations.md, "Tracing"): each caller's wait as {@code stockguard.journal.record},
 * and each group commit as {@code stockguard.journal.apply}, a child of the record of the caller
 * that led it (the other callers' traces show their wait only).
 */
public final class SynchronousJournal implements DurableJournal {

    /** Observation names and keys, shared with the full tier's journal. */
    public static final String RECORD_OBSERVATION = "stockguard.journal.record";
    public static final String APPLY_OBSERVATION = "stockguard.journal.apply";
    /** Which journal applies: {@code database} (this one) or {@code kafka} (the full tier's writer). */
    public static final String JOURNAL_KEY = "journal";
    public static final String EVENTS_KEY = "stockguard.events";

    /** One caller's share of a group commit. */
    private record Share(List<EventOutcome> outcomes, RuntimeException failure) {
    }

    private static final int STRIPES = 16;

    private final EventApplier applier;
    private final Duration waitMax;
    private final List<Combiner<List<StockEvent>, Share>> stripes = new ArrayList<>();
    private final ObservationRegistry observations;

    public SynchronousJournal(EventApplier applier, int batchEventsMax, Duration waitMax,
            ObservationRegistry observations) {
        this.applier = applier;
        this.waitMax = waitMax;
        this.observations = observations;
        for (int i = 0; i < STRIPES; i++) {
            stripes.add(new Combiner<>(batchEventsMax, this::commit));
        }
    }

    @Override
    public List<EventOutcome> record(List<StockEvent> events) {
        if (events.isEmpty()) {
            return List.of();
        }
        Observation observation = Observation.createNotStarted(RECORD_OBSERVATION, observations)
                .lowCardinalityKeyValue(JOURNAL_KEY, "database")
                .highCardinalityKeyValue(EVENTS_KEY, Integer.toString(events.size())).start();
        // In scope, so that the group commit this caller may lead is observed as its child.
        try (Observation.Scope ignored = observation.openScope()) {
            return recordObserved(events);
        } catch (RuntimeException e) {
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
    }

    private List<EventOutcome> recordObserved(List<StockEvent> events) {
        var stripe = stripes.get(Math.floorMod(events.getFirst().skuId().hashCode(), STRIPES));
        Share share = stripe.submit(events, waitMax);
        if (share == null) {
            throw new JournalUnavailableException("the database journal did not take the events in time", false, null);
        }
        if (share.failure() != null) {
            throw share.failure() instanceof JournalUnavailableException unavailable ? unavailable
                    : new JournalUnavailableException(share.failure().getMessage(), false, share.failure());
        }
        return share.outcomes();
    }

    private void commit(List<Combiner.Pending<List<StockEvent>, Share>> batch) {
        List<StockEvent> all = new ArrayList<>();
        batch.forEach(pending -> all.addAll(pending.request));
        Observation observation = Observation.createNotStarted(APPLY_OBSERVATION, observations)
                .lowCardinalityKeyValue(JOURNAL_KEY, "database")
                .highCardinalityKeyValue(EVENTS_KEY, Integer.toString(all.size())).start();
        List<EventOutcome> outcomes;
        try {
            outcomes = applier.apply(all, true);
        } catch (RuntimeException e) {
            observation.error(e);
            fail(batch, JournalUnavailableException.fromDatabase(e));
            return;
        } finally {
            observation.stop();
        }
        int from = 0;
        for (var pending : batch) {
            int to = from + pending.request.size();
            pending.complete(new Share(outcomes.subList(from, to), null));
            from = to;
        }
    }

    private static void fail(List<Combiner.Pending<List<StockEvent>, Share>> batch, RuntimeException failure) {
        batch.forEach(pending -> pending.complete(new Share(null, failure)));
    }
}
