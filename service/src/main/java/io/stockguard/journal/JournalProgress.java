package io.stockguard.journal;

import io.stockguard.stock.SkuId;
import java.time.Duration;

/**
 * How far the database is behind the journal. With the synchronous journal it never is; with the
 * appended journal (the standard tier) it is by the entries not yet applied, with Kafka by the
 * consumer lag: a large backlog throttles new reservations, and the database path may sell a SKU
 * only after everything journaled for it has been applied.
 */
public interface JournalProgress {

    /**
     * True when the journal acknowledges a change before the database has it (a queue): the
     * database then learns of changes later, and a hand-over of the hot store must wait for them.
     */
    boolean behind();

    /**
     * True when the journal itself refuses, before it is acknowledged, a change of a hot store that
     * no longer owns its SKU (the synchronous journal's database, the appended journal's fence): a
     * hand-over then needs no delay. False for Kafka, which takes whatever it is sent: a hand-over
     * waits until no instance can still be selling on what it last knew.
     */
    default boolean fencesAtAppend() {
        return !behind();
    }

    /** True while the backlog is over its threshold: new reservations are throttled. */
    boolean backlogged();

    /**
     * True when a new reservation may be journaled now: always, except while backlogged, when
     * only a limited rate is admitted (the rest is answered "throttled, retry after a second").
     */
    boolean admitReservation();

    /** Events journaled but not yet applied to the database, across all SKUs; 0 when unknown. */
    long backlog();

    /**
     * A mark of everything journaled for the SKU up to now, to wait for with {@link #applied};
     * fails (unchecked) when the journal cannot tell.
     */
    long mark(SkuId sku);

    /** True once everything journaled for the SKU up to {@code mark} is applied to the database. */
    boolean applied(SkuId sku, long mark);

    /**
     * Waits until everything journaled for the SKU so far is applied; false if not within {@code max}.
     * A journal that cannot tell for a moment (a broker failing over) is asked again until the
     * deadline: a wait that gives up at the first hiccup would read as "not applied".
     */
    default boolean awaitApplied(SkuId sku, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        Long mark = null;
        while (true) {
            try {
                if (mark == null) {
                    mark = mark(sku);
                }
                if (applied(sku, mark)) {
                    return true;
                }
            } catch (RuntimeException journalCannotTell) {
                if (System.nanoTime() > deadline) {
                    throw journalCannotTell;
                }
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }

    /**
     * Waits until everything journaled so far, for any SKU, is applied; false if not within
     * {@code max}. For when the SKUs concerned are not known.
     */
    boolean awaitAllApplied(Duration max);

    /** The synchronous journal: applied before acknowledged, so never behind. */
    JournalProgress IMMEDIATE = new JournalProgress() {
        @Override
        public boolean behind() {
            return false;
        }

        @Override
        public boolean backlogged() {
            return false;
        }

        @Override
        public boolean admitReservation() {
            return true;
        }

        @Override
        public long backlog() {
            return 0;
        }

        @Override
        public long mark(SkuId sku) {
            return 0;
        }

        @Override
        public boolean applied(SkuId sku, long mark) {
            return true;
        }

        @Override
        public boolean awaitAllApplied(Duration max) {
            return true;
        }
    };
}
