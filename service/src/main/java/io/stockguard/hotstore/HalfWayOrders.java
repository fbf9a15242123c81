package io.stockguard.hotstore;

import io.stockguard.journal.StockEvent;
import io.stockguard.platform.Caller;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.StockLine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Orders whose reservation request went away half-way (it gave up, died, or lost Redis) with some
 * lines reserved in the hot store and their changes still in the outbox. They are settled as a
 * whole, never line by line: the outbox sweeper once journaled each SKU's entries on their own,
 * so a request that died after one line of two (or a failover that lost one line's entries) left
 * the database holding an order with only some of the lines its customer asked for.
 *
 * <p>Every line held here under its SKU's current epoch: the order's changes are journaled
 * together (the journal applies an order's events all or none) and the record is handed back
 * for a retry to finish. A line missing, and the database without the order: the held lines are
 * undone as if never made and the record removed, so a retry starts afresh. The database with
 * the order: it has all of it, and the entries are journaled as they are.
 */
final class HalfWayOrders {

    private static final Logger log = LoggerFactory.getLogger(HalfWayOrders.class);
    private static final Caller SWEEPER = Caller.SYSTEM;

    /** What became of an order the sweeper met. */
    sealed interface Outcome {
        /** Not half-way (closed, settling, unknown): its entries are journaled as they are. */
        record NotHalfWay() implements Outcome {
        }

        /** A request still holds it: its entries wait. */
        record InProgress() implements Outcome {
        }

        /** Journaled as a whole, or undone as a whole: its entries left the outbox. */
        record Settled(boolean journaled) implements Outcome {
        }
    }

    private final HotOrders orders;
    private final HotLines lines;
    private final HotStoreSource database;
    private final RedisGateway redis;
    private final Consumer<List<StockEvent>> forward;

    HalfWayOrders(HotOrders orders, HotLines lines, HotStoreSource database, RedisGateway redis,
            Consumer<List<StockEvent>> forward) {
        this.orders = orders;
        this.lines = lines;
        this.database = database;
        this.redis = redis;
        this.forward = forward;
    }

    /** Whether a settlement of the order is under way (its changes wait for it), or was left half-way. */
    HotOrders.Settling settling(OrderId order, Instant now) {
        return orders.settling(order, now);
    }

    /**
     * Takes the order over when its request is gone, and settles it.
     *
     * @param beforeSettling runs once the order is taken over and before anything of it is journaled
     *     (the sweeper journals what precedes its entries in the outbox first)
     */
    Outcome settle(OrderId order, Instant now, Runnable beforeSettling) {
        HotOrders.Claim.Claimed claimed;
        Attempt sweeper = Attempt.anonymous();
        switch (orders.claim(order, now, sweeper)) {
            case HotOrders.Claim.NotOpening settled -> { return new Outcome.NotHalfWay(); }
            case HotOrders.Claim.Busy busy -> { return new Outcome.InProgress(); }
            case HotOrders.Claim.Claimed taken -> claimed = taken;
        }
        String fingerprint = claimed.fingerprint();
        boolean removed = false;
        try {
            beforeSettling.run();
            List<HotLines.HeldLine> held = new ArrayList<>();
            List<StockLine> asked = RecordedLines.decode(claimed.lines());
            for (StockLine line : asked) {
                lines.read(order, line.skuId()).filter(HotLines.HeldLine::held).ifPresent(held::add);
            }
            if (held.size() == asked.size()) {
                journalTogether(held);
                return new Outcome.Settled(true);
            }
            if (database.order(order).isPresent()) {
                // Journaled before (all lines at once); the hot store lost a line since, and the
                // database is the truth of it.
                return new Outcome.NotHalfWay();
            }
            if (!undoAll(order, held, now)) {
                return new Outcome.NotHalfWay();
            }
            if (!orders.abort(order, now, sweeper)) {
                log.warn("order {}: a retry took it over while the sweeper undid its lines; the retry finishes it",
                        order);
                return new Outcome.InProgress();
            }
            removed = true;
            log.warn("order {}: {} of its {} lines were reserved when its request went away, and the rest are "
                    + "gone from the hot store; the reserved lines are undone, and a retry starts afresh", order,
                    held.size(), asked.size());
            return new Outcome.Settled(false);
        } finally {
            if (!removed) {
                // Handed back: a retry resumes it at once (every line step is idempotent).
                orders.giveUp(order, fingerprint, now, sweeper);
            }
        }
    }

    private void journalTogether(List<HotLines.HeldLine> held) {
        List<HotLines.Change> changes = held.stream()
                .map(line -> lines.pending(line.skuId(), line.bucket(), String.join(",", line.pending()))).toList();
        List<StockEvent> events = changes.stream().flatMap(change -> change.events().stream()).toList();
        if (events.isEmpty()) {
            return;
        }
        forward.accept(events);
        changes.forEach(change -> redis.deleteFromOutbox(Keys.outbox(change.skuId()), change.entryIds()));
    }

    /** Undoes each held line while all its entries are still in the outbox; false when one could not be. */
    private boolean undoAll(OrderId order, List<HotLines.HeldLine> held, Instant now) {
        boolean all = true;
        for (HotLines.HeldLine line : held) {
            LineStep.ToRelease undone = lines.release(order, line.skuId(), "UNRESERVE", now, SWEEPER,
                    line.epochLoaded(), line.pending());
            if (!(undone instanceof LineStep.Unreserved)) {
                log.warn("order {}: its line on {} could not be undone ({}); its entries are journaled as they are",
                        order, line.skuId(), undone);
                all = false;
            }
        }
        return all;
    }
}
