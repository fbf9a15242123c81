package io.stockguard.hotstore;

import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.platform.Caller;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationOutcome;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What becomes of a reservation that will not be acknowledged (a line refused, the journal
 * unavailable, the database refusing its events): each line it reserved is undone in the hot store
 * as if it never happened while that is still safe, or cancelled with a journaled event where it
 * already stands in the journal; the order's record is forgotten, so a retry starts afresh.
 */
final class AbandonedReservations {

    private static final Logger log = LoggerFactory.getLogger(AbandonedReservations.class);

    private final HotOrders orders;
    private final HotLines lines;
    private final HotStockLoader loader;
    private final DurableJournal journal;
    private final RedisGateway redis;
    private final RedisProperties properties;

    AbandonedReservations(HotOrders orders, HotLines lines, HotStockLoader loader, DurableJournal journal,
            RedisGateway redis, RedisProperties properties) {
        this.orders = orders;
        this.lines = lines;
        this.loader = loader;
        this.journal = journal;
        this.redis = redis;
        this.properties = properties;
    }

    /**
     * The database refused the order's changes (it applied none of them). They are discarded from
     * the hot store; what the caller hears depends on why.
     */
    ReservationOutcome refusedByDatabase(ReserveCommand command, List<HotLines.Change> held,
            List<StockEvent> events, List<EventOutcome> outcomes, EventOutcome.Rejected refused, Instant now,
            Map<SkuId, Long> epochs, Attempt attempt) {
        OrderId order = command.orderId();
        boolean cancelled = false;
        for (HotLines.Change change : held) {
            if (landedBefore(change, events, outcomes)) {
                // An earlier attempt's change, journaled before (the database calls it a duplicate):
                // it stands in the database, so it is cancelled there, not discarded here.
                cancelled |= cancelLine(order, change, command.caller(), now, epochs.get(change.skuId()));
            } else {
                discardLine(order, change, command.caller(), now, epochs.get(change.skuId()));
            }
        }
        if (!orders.abort(order, now, attempt)) {
            log.warn("order {}: another attempt took its record over while the database refused this one's changes",
                    order);
        }
        SkuId sku = skuOf(refused, events, outcomes);
        if (cancelled) {
            log.warn("order {}: a line an earlier attempt reserved was cancelled, since the database refused the "
                    + "rest ({} on {})", order, refused.reason(), sku);
        }
        log.warn("the database refused the reservation of order {} on {}: {} {}", order, sku, refused.reason(),
                refused.detail());
        return switch (refused.reason()) {
            case FENCED -> throw new StaleOwner(sku, epochs.get(sku), "the database no longer takes its changes: "
                    + refused.detail());
            case REGRESSION, WOULD_GO_NEGATIVE -> throw new StaleOwner(sku, epochs.get(sku), "its copy is wrong: "
                    + refused.detail(), true);
            case SKU_FROZEN -> new Refusal.SkuFrozen(sku);
            case ORDER_CANCELLED -> new Refusal.OrderCancelled(order);
            case UNKNOWN_SKU -> new Refusal.UnknownSku(sku);
            case INVALID_TRANSITION -> replayFromDatabase(order, epochs);
        };
    }

    /**
     * The database already holds a reservation for this order (made before this SKU's hot store
     * owned it): that one stands, and the caller gets its outcome.
     */
    private ReservationOutcome replayFromDatabase(OrderId order, Map<SkuId, Long> epochs) {
        Optional<ReservationView> stored = loader.rewriteOrder(order, sku -> epochs.getOrDefault(sku, 0L));
        if (stored.isEmpty()) {
            return new Refusal.Unavailable(false, "the database refused order " + order + " and does not have it");
        }
        return switch (stored.get().state()) {
            case CANCELLED, EXPIRED -> Refusal.movedOn(order, stored.get().state());
            case RESERVED, CONFIRMED -> new ReservationOutcome.Reserved(stored.get(), true);
        };
    }

    /** Whether the change's own events were all in the database already (journaled by an earlier attempt). */
    private static boolean landedBefore(HotLines.Change change, List<StockEvent> events, List<EventOutcome> outcomes) {
        List<StockEvent> own = change.events().stream().filter(e -> e.op().isOrderOperation()).toList();
        return !own.isEmpty() && own.stream().allMatch(e -> outcomes.get(events.indexOf(e))
                == EventOutcome.Settled.DUPLICATE);
    }

    /** Returns a line's stock with a journaled cancel; true when it was cancelled now. */
    private boolean cancelLine(OrderId order, HotLines.Change change, Caller caller, Instant now, long epoch) {
        if (!(lines.release(order, change.skuId(), "CANCEL", now, caller, epoch, List.of())
                instanceof LineStep.Moved(HotLines.Change cancel))) {
            return false;
        }
        List<EventOutcome> outcomes = journal.record(cancel.events());
        if (outcomes.stream().anyMatch(EventOutcome.Rejected.class::isInstance)) {
            throw new StaleOwner(change.skuId(), epoch, "the database refused the cancel of a line it holds: "
                    + outcomes);
        }
        redis.deleteFromOutbox(Keys.outbox(change.skuId()), cancel.entryIds());
        return true;
    }

    private static SkuId skuOf(EventOutcome.Rejected refused, List<StockEvent> events, List<EventOutcome> outcomes) {
        return events.get(outcomes.indexOf(refused)).skuId();
    }

    /**
     * Undoes the reserved lines as if they never happened and forgets the order record, so a retry
     * starts afresh. Only while the attempt is younger than half the outbox sweep's minimum age:
     * older, the sweeper may be journaling its changes at that very moment, so they are left to it
     * (the order stays OPENING, and a retry resumes it once it is stale). Returns whether it undid
     * (false too when another attempt took the record over meanwhile: the outcome is that one's).
     */
    boolean abandon(OrderId order, List<HotLines.Change> held, Caller caller, Instant now,
            Map<SkuId, Long> epochs, long started, Set<SkuId> resumed, Attempt attempt) {
        if (System.nanoTime() - started > properties.outbox().minimumAge().dividedBy(2).toNanos()) {
            log.warn("order {}: too late to undo its reservation safely; left for the outbox sweeper", order);
            return false;
        }
        for (HotLines.Change change : held) {
            undoLine(order, change, caller, now, epochs.get(change.skuId()), resumed);
        }
        if (!orders.abort(order, now, attempt)) {
            // Another attempt took the record over while this one was quiet for opening-stale: its
            // outcome is the order's, and this one cannot say what it will be.
            log.warn("order {}: another attempt took it over while this one undid its lines", order);
            return false;
        }
        return true;
    }

    private void undoLine(OrderId order, HotLines.Change change, Caller caller, Instant now, long epoch,
            Set<SkuId> resumed) {
        if (resumed.contains(change.skuId())) {
            // Reserved by an attempt that died, long enough ago for the sweeper to be journaling what
            // it left: never undone as if it had not happened, but journaled (a duplicate at worst)
            // and then cancelled, so it does not hold stock for an order nobody completes.
            if (!change.events().isEmpty()) {
                journal.record(change.events());
                redis.deleteFromOutbox(Keys.outbox(change.skuId()), change.entryIds());
            }
            cancelLine(order, change, caller, now, epoch);
            return;
        }
        if (change.entryIds().isEmpty()) {
            return;
        }
        if (lines.release(order, change.skuId(), "UNRESERVE", now, caller, epoch, ownEntries(change))
                instanceof LineStep.Journaled) {
            // The sweeper journaled it meanwhile: it stands in the database, so it is cancelled.
            cancelLine(order, change, caller, now, epoch);
        }
    }

    /**
     * Undoes a line the database refused in full: it was never applied there, so it is undone in
     * the hot store whether or not its outbox entries were swept meanwhile (a sweep finds them
     * refused too).
     */
    private void discardLine(OrderId order, HotLines.Change change, Caller caller, Instant now, long epoch) {
        if (change.entryIds().isEmpty()) {
            return;
        }
        lines.release(order, change.skuId(), "DISCARD", now, caller, epoch, ownEntries(change));
    }

    /**
     * The outbox entries of the order's own events; the transfers that made room for the line in
     * its home bucket stand (they moved stock within the SKU, which stays true).
     */
    private static List<String> ownEntries(HotLines.Change change) {
        List<String> own = new ArrayList<>();
        for (int i = 0; i < change.events().size(); i++) {
            if (change.events().get(i).op().isOrderOperation()) {
                own.add(change.entryIds().get(i));
            }
        }
        return own;
    }
}
