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

    /** What decides a SKU's level. @param lowStock its low-stock threshold (its safety stock when it has none) */
    record Stock(long available, long total, long lowStock) {
    }

    /** The stock of these SKUs as the database counts it; a SKU that does not exist is absent. */
    Map<SkuId, Stock> stock(Collection<SkuId> skus);

    /** A delivery due now, with its event. */
    record Due(StockLevelEvent event, String webhook, int attempts) {
    }

    /** An event with how its deliveries stand. */
    record Recorded(StockLevelEvent event, int delivered, int pending, int gaveUp) {
    }

    /** How far the watcher has read the journal; the journal's end the first time it is asked. */
    long position();

    void movePosition(long to);

    /** The journal's last row now. */
    long journalEnd();

    /** Moves the position back: the journal was reset (restored from a backup, truncated). */
    void resetPosition(long to);

    /** Journal rows after {@code after}, oldest first. */
    List<Changed> changedSince(long after, int limit);

    Map<SkuId, Reported> levels(Collection<SkuId> skus);

    /**
     * Records the first level of SKUs seen for the first time (no events), all in one batch; a SKU
     * another watcher recorded meanwhile keeps its row.
     */
    void baseline(Map<SkuId, Long> availableBySku, StockLevel level, Instant at);

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

    /** The subscriptions made by the admin API, by name, at most {@code limit}. */
    List<Subscription> subscriptions(int limit);

    /** Stores a subscription; false when its name is taken. */
    boolean subscribe(Subscription subscription);

    /** Removes a subscription; false when there is none of that name. */
    boolean unsubscribe(String name);
}
