package io.stockguard.reservation.redis;

import io.stockguard.journal.JournalProgress;
import io.stockguard.reservation.jdbc.HotStoreSource;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * When the database path may serve in place of the hot store, in the full tier. There the hot
 * store's changes reach the database later, through Kafka, so the database path must first wait
 * for them: it must never sell what Kafka already holds as sold. Before it sells a SKU:
 * <ol>
 * <li>the SKU is taken over (marked invalid in the database), and every instance stops selling it
 *     from the hot store within {@code takeoverDelay} (the routing refresh plus the longest a
 *     request in flight may still take);</li>
 * <li>then everything journaled for the SKU up to that moment is applied to the database.</li>
 * </ol>
 * Settlements (confirm, cancel, expiry) wait only for step 2: they move stock the order holds.
 * A request that would have to wait longer than {@code waitMax} is answered "unavailable, retry".
 * With the synchronous journal nothing needs waiting for: every change is in the database before
 * it is acknowledged, and the database fences late sales itself.
 */
final class TakeoverGate {

    /** Marks remembered per takeover; beyond this they are forgotten (and taken again when asked). */
    private static final int MARKS_MAX = 100_000;

    private final HotStoreSource database;
    private final JournalProgress journal;
    private final Duration takeoverDelay;
    private final Duration waitMax;
    private final Clock clock;
    private final boolean needed;
    /** The journal's mark for each SKU taken over at a given moment (a new takeover takes a new mark). */
    private final Map<Takeover, Long> marks = new ConcurrentHashMap<>();

    private record Takeover(SkuId sku, Instant since) {
    }

    TakeoverGate(HotStoreSource database, JournalProgress journal, Duration takeoverDelay, Duration waitMax,
            Clock clock, boolean needed) {
        this.database = database;
        this.journal = journal;
        this.takeoverDelay = takeoverDelay;
        this.waitMax = waitMax;
        this.clock = clock;
        this.needed = needed;
    }

    /** Null when the database path may sell these SKUs now; otherwise why not yet. */
    String readyToSell(Collection<SkuId> skus) {
        if (!needed) {
            return null;
        }
        try {
            return takeOver(skus);
        } catch (RuntimeException e) {
            // Kafka cannot say what it holds: selling now could sell what it holds as sold.
            return "the journal cannot be checked (" + e.getMessage() + ")";
        }
    }

    private String takeOver(Collection<SkuId> skus) {
        for (SkuId sku : skus) {
            Optional<HotStoreSource.HotOwnership> ownership = database.ownership(sku);
            if (ownership.isEmpty()) {
                continue;
            }
            if (ownership.get().valid() || ownership.get().invalidSince() == null) {
                database.markInvalid(sku, clock.instant());
                return "SKU " + sku + " is being taken over from the hot store";
            }
            Instant safe = ownership.get().invalidSince().plus(takeoverDelay);
            if (clock.instant().isBefore(safe)) {
                return "SKU " + sku + " is being taken over from the hot store until " + safe;
            }
            if (!awaitApplied(sku, mark(new Takeover(sku, ownership.get().invalidSince())))) {
                return "the journal of SKU " + sku + " is still being applied";
            }
        }
        return null;
    }

    /** Null when the database has every change journaled so far for these SKUs; otherwise why not. */
    String readyToSettle(Collection<SkuId> skus) {
        if (!needed) {
            return null;
        }
        try {
            if (skus.isEmpty()) {
                // The order's SKUs are unknown here (the hot store is out of reach and the database
                // may not have the order yet): everything journaled must be applied first.
                return journal.awaitAllApplied(waitMax) ? null : "the journal is still being applied";
            }
            for (SkuId sku : skus) {
                if (!awaitApplied(sku, journal.mark(sku))) {
                    return "the journal of SKU " + sku + " is still being applied";
                }
            }
            return null;
        } catch (RuntimeException e) {
            return "the journal cannot be checked (" + e.getMessage() + ")";
        }
    }

    private long mark(Takeover takeover) {
        if (marks.size() >= MARKS_MAX) {
            marks.clear();
        }
        return marks.computeIfAbsent(takeover, t -> journal.mark(t.sku()));
    }

    private boolean awaitApplied(SkuId sku, long mark) {
        long deadline = System.nanoTime() + waitMax.toNanos();
        while (!journal.applied(sku, mark)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
        return true;
    }
}
