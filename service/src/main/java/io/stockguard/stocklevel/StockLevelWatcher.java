package io.stockguard.stocklevel;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.journal.EventIds;
import io.stockguard.platform.DutyLeases;
import io.stockguard.platform.PeriodicWork;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.TaskScheduler;

/**
 * Follows the journal for SKUs whose stock changed, reads their stock as the database counts it (one
 * query for all the SKUs of a round; in the full tier the journal's lag is added to the event's), and
 * reports changes of level. One instance at a time watches (a duty lease); the row it moves in
 * {@code stock_level} makes each report happen once even when a lease changes hands mid-round.
 */
final class StockLevelWatcher extends PeriodicWork {

    static final String DUTY = "stock-levels";
    private static final Logger log = LoggerFactory.getLogger(StockLevelWatcher.class);
    /**
     * Journal rows read again each round: a row gets its id when inserted but is seen when its
     * transaction commits, so a row with a smaller id can appear after a larger one was read.
     * Looking at a SKU twice costs a read; missing one would miss its change.
     */
    static final long OVERLAP = 2_000;
    /** Journal rows read per round; a larger backlog is read over several rounds. */
    static final int ROWS_PER_ROUND_MAX = 20_000;
    /** SKUs looked at per round; the rest are looked at next round. */
    static final int SKUS_PER_ROUND_MAX = 2_000;

    private final StockLevelStore store;
    private final DutyLeases duties;
    private final StockLevelProperties properties;
    /** Where each event is delivered. */
    /** The sinks each event gets a delivery for, as they are when it is made. */
    private final Supplier<List<String>> sinks;
    /** Told when an event was reported, to deliver it now. */
    private final Runnable reportedNow;
    private final Clock clock;
    private final Counter reported;
    /** SKUs to look at, with the trace of their last change seen. */
    private final Map<SkuId, String> due = new LinkedHashMap<>();
    /** Sold-out SKUs seen available again, and since when: reported back once it lasts. */
    private final Map<SkuId, Instant> comingBack = new HashMap<>();
    private long position = -1;

    StockLevelWatcher(StockLevelStore store, DutyLeases duties,
            StockLevelProperties properties, Supplier<List<String>> sinks, Runnable reportedNow, TaskScheduler scheduler,
            MeterRegistry meters, Clock clock) {
        super(scheduler, properties.sampleInterval());
        this.sinks = sinks;
        this.reportedNow = reportedNow;
        this.store = store;
        this.duties = duties;
        this.properties = properties;
        this.clock = clock;
        this.reported = meters.counter("stockguard.stock_levels.reported");
    }

    @Override
    protected void runOnce() {
        try {
            if (!duties.hold(DUTY, leaseLength(properties))) {
                // Another instance watches: what this one knew may be stale when it takes over.
                position = -1;
                due.clear();
                comingBack.clear();
                return;
            }
            watch();
        } catch (RuntimeException e) {
            log.warn("stock levels not watched this round: {}", e.toString());
        }
    }

    /** One round: the SKUs the journal says changed, and those coming back, looked at and reported. */
    void watch() {
        if (position < 0) {
            position = store.position();
        }
        List<StockLevelStore.Changed> changed = store.changedSince(Math.max(0, position - OVERLAP), ROWS_PER_ROUND_MAX);
        long end = changed.isEmpty() ? store.journalEnd() : position;
        if (end < position) {
            // The journal starts over below where this watcher stopped (a backup restored, a table
            // truncated): without going back, its changes would go unseen until it caught up.
            log.warn("the journal ends at {}, before the {} the stock levels were watched up to; watching from there",
                    end, position);
            store.resetPosition(end);
            position = end;
            return;
        }
        long reached = position;
        for (StockLevelStore.Changed row : changed) {
            due.put(row.skuId(), row.traceId());
            reached = Math.max(reached, row.position());
        }
        comingBack.keySet().forEach(sku -> due.putIfAbsent(sku, null));
        Map<SkuId, String> round = new LinkedHashMap<>();
        var pending = due.entrySet().iterator();
        while (pending.hasNext() && round.size() < SKUS_PER_ROUND_MAX) {
            var next = pending.next();
            round.put(next.getKey(), next.getValue());
            pending.remove();
        }
        if (!round.isEmpty() && look(round) > 0) {
            reportedNow.run();
        }
        if (reached > position) {
            store.movePosition(reached);
            position = reached;
        }
    }

    /** Looks at the SKUs; returns how many events it reported. */
    private int look(Map<SkuId, String> skus) {
        int events = 0;
        Instant now = clock.instant();
        Map<SkuId, StockLevelStore.Reported> levels = new HashMap<>(store.levels(skus.keySet()));
        Map<SkuId, StockLevelStore.Stock> stocks = store.stock(skus.keySet());
        Map<SkuId, Long> firstSeen = new LinkedHashMap<>();
        skus.keySet().forEach(sku -> {
            if (!levels.containsKey(sku) && stocks.containsKey(sku)) {
                firstSeen.put(sku, stocks.get(sku).available());
            }
        });
        if (!firstSeen.isEmpty()) {
            // First seen: counted as in stock, as a SKU is made to be sold, so that one created empty,
            // or sold out before the watcher first looked, is reported sold out below. Read back: a
            // row another watcher made meanwhile stands.
            store.baseline(firstSeen, StockLevel.IN_STOCK, now);
            levels.putAll(store.levels(firstSeen.keySet()));
        }
        for (Map.Entry<SkuId, String> entry : skus.entrySet()) {
            SkuId sku = entry.getKey();
            StockLevelStore.Stock stock = stocks.get(sku);
            if (stock == null) {
                comingBack.remove(sku);
                continue;
            }
            long available = stock.available();
            long lowStock = stock.lowStock();
            StockLevelStore.Reported last = levels.get(sku);
            if (last == null) {
                continue;
            }
            boolean backLongEnough = false;
            if (last.level() == StockLevel.SOLD_OUT && available > 0) {
                Instant since = comingBack.computeIfAbsent(sku, s -> now);
                backLongEnough = !since.plus(properties.backInStockAfter()).isAfter(now);
            } else {
                comingBack.remove(sku);
            }
            LevelRules.Decision decision = LevelRules.next(last.level(), available, lowStock, backLongEnough);
            if (decision.level() == last.level()) {
                continue;
            }
            StockLevelEvent event = decision.report() == null ? null : new StockLevelEvent(EventIds.next(), sku,
                    decision.report(), available, stock.total(), now, entry.getValue());
            if (store.move(sku, last.level(), decision.level(), available, event, event == null ? List.of()
                    : sinks.get(), now)) {
                comingBack.remove(sku);
                if (event != null) {
                    events++;
                    reported.increment();
                    log.info("SKU {}: {} ({} available of {})", sku, event.change(), available, stock.total());
                }
            } else {
                // Moved by another watcher meanwhile: looked at again next round, against its level.
                due.put(sku, entry.getValue());
            }
        }
        return events;
    }

    /** Long enough to survive a slow round, short enough that another instance takes over soon. */
    static Duration leaseLength(StockLevelProperties properties) {
        return Duration.ofSeconds(10).plus(properties.sampleInterval().multipliedBy(4));
    }

    @Override
    public void stop() {
        super.stop();
        try {
            duties.release(DUTY);
        } catch (RuntimeException e) {
            log.debug("stock-level lease not released: {}", e.toString());
        }
    }
}
