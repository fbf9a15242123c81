package io.stockguard.stocklevel;

import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Where levels, events and their deliveries are kept (the database every instance shares). */
public interface StockLevelStore {

    /** A journal row: which SKU changed, and the trace of the change. */
    record Changed(long position, SkuId skuId, String traceId) {
    }

    /** The level a SKU was last reported at. */
    record Reported(StockLevel level, long available, Instant changedAt) {
    }

    /** A delivery due now, with its event. */
    record Due(StockLevelEvent event, String webhook, int attempts) {
    }

    /** An event with how its deliveries stand. */
    record Recorded(StockLevelEvent event, int delivered, int pending, int gaveUp) {
    }

    /** How far the watcher has read the journal; the journal's end the first time it is asked. */
    long position();

    void movePosition(long to);

    /** Journal rows after {@code after}, oldest first. */
    List<Changed> changedSince(long after, int limit);

    Map<SkuId, Reported> levels(Collection<SkuId> skus);

    /** Records a SKU's first level (no event); false if another watcher recorded it first. */
    boolean baseline(SkuId sku, StockLevel level, long available, Instant at);

    /**
     * Moves the SKU's level from {@code from} to {@code to}, with the event (if any) and one pending
     * delivery per webhook, in one transaction; false, with nothing recorded, when the level was no
     * longer {@code from}.
     */
    boolean move(SkuId sku, StockLevel from, StockLevel to, long available, StockLevelEvent event,
            List<String> webhooks, Instant at);

    List<Due> due(Instant now, int limit);

    void delivered(String eventId, String webhook, Instant at);

    void retryLater(String eventId, String webhook, Instant next, String error);

    void giveUp(String eventId, String webhook, Instant at, String error);

    /** The newest events, of one SKU or (null) of all. */
    List<Recorded> recent(SkuId sku, int limit);
}
