package io.stockguard.journal;

import io.stockguard.platform.Combiner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * The standard tier's journal: the hot store's events are applied to the database before the
 * reservation is acknowledged (I2 without a queue). Concurrent callers are group-committed: the
 * events of everyone waiting are applied in one transaction, one commit for all.
 */
public final class SynchronousJournal implements DurableJournal {

    /** One caller's share of a group commit. */
    private record Share(List<EventOutcome> outcomes, RuntimeException failure) {
    }

    private static final int STRIPES = 16;

    private final EventApplier applier;
    private final Duration waitMax;
    private final List<Combiner<List<StockEvent>, Share>> stripes = new ArrayList<>();

    public SynchronousJournal(EventApplier applier, int batchEventsMax, Duration waitMax) {
        this.applier = applier;
        this.waitMax = waitMax;
        for (int i = 0; i < STRIPES; i++) {
            stripes.add(new Combiner<>(batchEventsMax, this::commit));
        }
    }

    @Override
    public List<EventOutcome> record(List<StockEvent> events) {
        if (events.isEmpty()) {
            return List.of();
        }
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
        List<EventOutcome> outcomes;
        try {
            outcomes = applier.apply(all, true);
        } catch (TransactionSystemException e) {
            fail(batch, new JournalUnavailableException("the database failed while committing", true, e));
            return;
        } catch (DataAccessException | TransactionException e) {
            fail(batch, new JournalUnavailableException("the database is unavailable", false, e));
            return;
        } catch (RuntimeException e) {
            fail(batch, e);
            return;
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
