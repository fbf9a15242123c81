package io.stockguard.hotstore;

import io.stockguard.reservation.ReservationView;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The order record's decisions, believed only when the record is the truth of the order: a record
 * of another Redis history, one whose lines were recorded under other epochs than those that own
 * the SKUs now, or one with no line while the database has the order, is first replaced by the
 * database's copy (the database has everything an older epoch acknowledged), and asked again.
 */
final class OrderDecisions {

    private final HotStockLoader loader;

    OrderDecisions(HotStockLoader loader) {
        this.loader = loader;
    }

    /**
     * Asks the order record to decide; a record that is missing, or whose lines were recorded under
     * other epochs than those that own the SKUs now, is first replaced by the database's copy.
     */
    <D extends OrderDecision> D decide(OrderId order, Supplier<D> decision, Map<SkuId, Long> epochs) {
        D decided = decision.get();
        if (decided instanceof OrderDecision.Foreign) {
            // Made under another Redis history (a failover or restart since): the lost history may have
            // moved the order on. The database's copy replaces it (or it goes, if the database has none).
            loader.rewriteOrder(order, sku -> epochs.getOrDefault(sku, 0L));
            decided = decision.get();
            if (decided instanceof OrderDecision.Foreign) {
                throw rewrittenYetForeign(order);
            }
        }
        if (decided instanceof OrderDecision.Tombstone) {
            // A cancel that found no record wrote a tombstone; unless the database has the order.
            Optional<ReservationView> known = loader.order(order);
            if (known.isEmpty() || known.get().isTombstone()) {
                return decided;
            }
            loader.rewriteOrder(order, sku -> epochs.getOrDefault(sku, 0L));
            return decision.get();
        }
        boolean stale = false;
        if (decided instanceof OrderDecision.Recorded recorded) {
            stale = !current(recorded.recorded(), epochs);
            if (!stale && RecordedLines.epochs(recorded.recorded()).isEmpty()) {
                // No line of it was reserved here: a reservation still opening, one an attempt that died
                // left behind, or a tombstone. If the database has the order, it was made (and maybe
                // settled) on the database path since, and this record is not the truth of it.
                Optional<ReservationView> known = loader.order(order);
                stale = known.isPresent() && !known.get().isTombstone();
            }
        }
        if (!(decided instanceof OrderDecision.NoRecord) && !stale) {
            return decided;
        }
        Optional<ReservationView> known = loader.rewriteOrder(order, sku -> epochs.getOrDefault(sku, 0L));
        return known.isPresent() ? decision.get() : decided;
    }

    /** decide() rewrites a record of another Redis history from the database: it never answers FOREIGN after. */
    static IllegalStateException rewrittenYetForeign(OrderId order) {
        return new IllegalStateException("order.lua answered FOREIGN for order " + order
                + " after its record was rewritten");
    }

    /** Whether every line was recorded under the epoch that owns its SKU now. */
    private static boolean current(String recorded, Map<SkuId, Long> epochs) {
        return RecordedLines.epochs(recorded).entrySet().stream()
                .allMatch(e -> e.getValue().equals(epochs.get(e.getKey())));
    }
}
