package io.stockguard.journal;

import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;

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
     * Waits until everything journaled for the SKU so far is applied; false if not within {@code max},
     * or when the journal still cannot tell then ({@link #await}).
     */
    default boolean awaitApplied(SkuId sku, Duration max) {
        return await(max, AWAIT_POLL, () -> mark(sku), mark -> applied(sku, mark));
    }

    /**
     * Waits until everything journaled so far, for any SKU, is applied; false if not within
     * {@code max}, or when the journal still cannot tell then. For when the SKUs concerned are not
     * known.
     */
    boolean awaitAllApplied(Duration max);

    /** How often a wait asks the journal again. */
    Duration AWAIT_POLL = Duration.ofMillis(20);

    /**
     * The one wait every journal's {@code await…} goes through: takes the mark once, then asks
     * whether it is applied every {@code poll} until it is (true) or {@code max} has passed (false).
     * A journal that cannot tell (a broker failing over, a database that does not answer) is asked
     * again until the deadline, and one that still cannot tell then answers false, like one that is
     * behind: the callers turn false into "retry" (503) and apply nothing, where a failure would
     * have reached the client as an unexpected error (500) for what is only a journal not yet back.
     *
     * @param <M> the mark: a position in the journal, or one per partition
     */
    static <M> boolean await(Duration max, Duration poll, Supplier<M> mark, Predicate<M> applied) {
        long deadline = System.nanoTime() + max.toNanos();
        M taken = null;
        while (true) {
            try {
                if (taken == null) {
                    taken = mark.get();
                }
                if (applied.test(taken)) {
                    return true;
                }
            } catch (RuntimeException journalCannotTell) {
                // asked again below, until the deadline
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            LockSupport.parkNanos(poll.toNanos());
        }
    }

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
