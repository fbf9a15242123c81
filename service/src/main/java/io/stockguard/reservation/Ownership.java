package io.stockguard.reservation;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * Which side sells a SKU's stock, and the hand-over between them: the one home of that state
 * machine. In the Redis tiers exactly one side sells a SKU at any moment, so that neither can sell
 * what the other already sold:
 *
 * <pre>
 *   DATABASE(e) --load---------> HOT(e+1)           the database's counters become the hot store's
 *   HOT(e)      --takeOver-----> DRAINING(e, since) nobody sells; the hot store at e is being stopped
 *   DRAINING(e) --finishDrain--> DATABASE(e)        every instance stopped, its journal applied
 * </pre>
 *
 * <ul>
 * <li>{@link Database}: the database ledger sells. A hot copy of an older epoch may linger in
 *     Redis; nobody sells from it (scripts are told the epoch they may sell at).</li>
 * <li>{@link Hot}: the hot store loaded at {@code epoch} sells; the database only applies its
 *     journal. Every stock change of the SKU (reservations, restocks, adjustments, modes) goes
 *     through the hot store, so the database never changes behind its back.</li>
 * <li>{@link Draining}: the hot store at {@code epoch} must stop. Its changes journaled before the
 *     hand-over settled are applied; nothing sells until the database has them all. With the
 *     standard tier's journal that is once the journal is applied (its append refuses a late
 *     sale); with Kafka it is after the hand-over delay (the longest an instance may go on selling
 *     on what it last knew) and the journal's catch-up.</li>
 * </ul>
 *
 * A SKU is created DATABASE(0) and is loaded on first use when the hot store is usable: never
 * loaded is not taken over.
 */
public sealed interface Ownership {

    /** The hot-store epoch this state is about: the one loaded, being stopped, or last stopped (0: never loaded). */
    long epoch();

    /** Who sells now. */
    Seller seller();

    enum Seller { DATABASE, HOT, NOBODY }

    /** The name stored in the database ({@code DATABASE}, {@code HOT}, {@code DRAINING}). */
    default String state() {
        return getClass().getSimpleName().toUpperCase(Locale.ROOT);
    }

    /** @param since when the hot store of {@code epoch} was taken over (null: never loaded) */
    record Database(long epoch, Instant since) implements Ownership {
        public Database(long epoch) {
            this(epoch, null);
        }

        public Seller seller() {
            return Seller.DATABASE;
        }
    }

    record Hot(long epoch) implements Ownership {
        public Seller seller() {
            return Seller.HOT;
        }
    }

    record Draining(long epoch, Instant since) implements Ownership {
        public Seller seller() {
            return Seller.NOBODY;
        }
    }

    /** A SKU as it is created: the database sells it, the hot store never had it. */
    static Ownership created() {
        return new Database(0);
    }

    /** When the state began, where it keeps it (DRAINING; DATABASE after a take-over), else null. */
    default Instant since() {
        return switch (this) {
            case Draining draining -> draining.since();
            case Database database -> database.since();
            case Hot hot -> null;
        };
    }

    /** Reads a state stored as {@link #state()}, epoch and since. */
    static Ownership of(String state, long epoch, Instant since) {
        return switch (state) {
            case "DATABASE" -> new Database(epoch, since);
            case "HOT" -> new Hot(epoch);
            case "DRAINING" -> new Draining(epoch, since);
            default -> throw new IllegalArgumentException("no ownership state " + state);
        };
    }

    /** What a transition came to: the state after it, or why it could not be made now. */
    sealed interface Step {
    }

    /** The transition was made; {@code to} is the new state. */
    record Moved(Ownership from, Ownership to) implements Step {
    }

    /** Nothing to do: the state already is what the transition leads to (or past it). */
    record Unchanged(Ownership state) implements Step {
    }

    /** The transition is not possible from this state, or not yet; {@code why} says which. */
    record Refused(Ownership state, String why) implements Step {
    }

    /**
     * The hot store takes the SKU: only from DATABASE, under a new epoch (a load must never reuse
     * an epoch whose sequence numbers a lost hot store may have handed out, I5), and not within
     * {@code reloadAfter} of a take-over: an instance that cannot reach Redis and one that can would
     * otherwise pass the SKU back and forth on every request.
     */
    default Step load(Instant now, Duration reloadAfter) {
        return switch (this) {
            case Database database when database.since() != null
                    && now.isBefore(database.since().plus(reloadAfter)) -> new Refused(this,
                    "taken from the hot store at " + database.since() + "; loaded again from "
                            + database.since().plus(reloadAfter));
            case Database database -> new Moved(this, new Hot(database.epoch() + 1));
            case Hot hot -> new Unchanged(this);
            case Draining draining -> new Refused(this, "the hot store of epoch " + draining.epoch()
                    + " is still being stopped");
        };
    }

    /** The hot store must stop selling the SKU (it failed, lost it, or was found wrong). */
    default Step takeOver(Instant now) {
        return switch (this) {
            case Hot hot -> new Moved(this, new Draining(hot.epoch(), now));
            case Draining draining -> new Unchanged(this);
            case Database database -> new Unchanged(this);
        };
    }

    /**
     * The database may sell again once no instance can still be selling from the hot store that
     * is being stopped ({@code handOverDelay} after the hand-over began) and everything that hot
     * store journaled has been applied.
     */
    default Step finishDrain(Instant now, Duration handOverDelay, boolean journalApplied) {
        return switch (this) {
            case Draining draining -> {
                Instant settled = draining.since().plus(handOverDelay);
                if (now.isBefore(settled)) {
                    yield new Refused(this, "instances may sell from the hot store of epoch " + draining.epoch()
                            + " until " + settled);
                }
                yield journalApplied ? new Moved(this, new Database(draining.epoch(), draining.since()))
                        : new Refused(this, "the journal of epoch " + draining.epoch() + " is still being applied");
            }
            case Database database -> new Unchanged(this);
            case Hot hot -> new Refused(this, "the hot store of epoch " + hot.epoch() + " sells it: take it over first");
        };
    }

    /**
     * Whether the database applies a change the hot store journaled at {@code epoch}: one of the
     * owner's own, always; one of the hot store being stopped, only while the journal is behind
     * (Kafka: it may have been acknowledged before the hand-over settled); any other was never
     * acknowledged (the hand-over guarantees it) and is refused.
     */
    default boolean acceptsHotChange(long epoch, boolean journalBehind) {
        return switch (this) {
            case Hot hot -> hot.epoch() == epoch;
            case Draining draining -> journalBehind && draining.epoch() == epoch;
            case Database database -> false;
        };
    }
}
