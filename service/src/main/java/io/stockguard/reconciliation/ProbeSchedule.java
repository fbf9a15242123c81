package io.stockguard.reconciliation;

import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * When each SKU is probed. Hot SKUs (the busiest by journal rows since the last look, plus the
 * watch list) every {@code hot-interval}; a SKU at WARN or above every {@code elevated-interval};
 * every SKU, page by page, on the slow sweep, which also checks the ledger's own invariant. One
 * thread of its own, at most {@code probes-per-tick-max} SKUs per tick: the probe can fall behind,
 * it cannot pile up, and it never runs on a request thread.
 */
@Component
class ProbeSchedule implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ProbeSchedule.class);
    /** A SKU not among the busiest for this many looks (and in step) leaves the hot set. */
    private static final int LOOKS_BEFORE_COOLING = 3;
    private static final int PRUNE_BATCH = 5_000;

    private final DriftProbe probe;
    private final LedgerSide ledger;
    private final Readings readings;
    private final ReconciliationProperties settings;
    private final Clock clock;
    private final Map<SkuId, Hot> hot = new HashMap<>();
    private ScheduledExecutorService thread;
    private long lastEventId = -1;
    private Instant nextLook = Instant.EPOCH;
    private Instant nextSweep = Instant.EPOCH;
    private Instant nextPrune = Instant.EPOCH;
    private String sweepAfter;
    private volatile SweepCost lastSweep;

    /** A hot SKU: when it is next due, and the look at which it was last among the busiest. */
    private static final class Hot {
        Instant due;
        long lastBusyLook;
        boolean elevated;

        Hot(Instant due, long look) {
            this.due = due;
            this.lastBusyLook = look;
        }
    }

    /** The cost of the last sweep page: SKUs probed and milliseconds taken. */
    record SweepCost(int skus, long millis) {

        double millisPerThousandSkus() {
            return skus == 0 ? 0 : millis * 1000.0 / skus;
        }
    }

    private long looks;

    ProbeSchedule(DriftProbe probe, LedgerSide ledger, Readings readings, ReconciliationProperties settings,
            Clock clock) {
        this.probe = probe;
        this.ledger = ledger;
        this.readings = readings;
        this.settings = settings;
        this.clock = clock;
    }

    SweepCost lastSweep() {
        return lastSweep;
    }

    /** One pass of the schedule; the thread calls it every tick (tests may call it directly). */
    synchronized void tick() {
        Instant now = clock.instant();
        if (!now.isBefore(nextLook)) {
            lookForHotSkus(now);
            nextLook = now.plus(settings.hotInterval());
        }
        probeDueHotSkus(now);
        if (!now.isBefore(nextSweep)) {
            sweep();
            nextSweep = clock.instant().plus(settings.sweepInterval());
        }
        if (!now.isBefore(nextPrune)) {
            int pruned = readings.prune(now.minus(settings.keepReadings()), PRUNE_BATCH);
            nextPrune = now.plus(pruned == PRUNE_BATCH ? settings.tick() : Duration.ofMinutes(10));
        }
    }

    private void lookForHotSkus(Instant now) {
        looks++;
        long upTo = ledger.lastEventId();
        List<SkuId> busiest = new ArrayList<>();
        if (lastEventId >= 0 && settings.hotSkus() > 0) {
            long from = Math.max(lastEventId, upTo - settings.busiestScanEventsMax());
            busiest.addAll(ledger.busiest(from, upTo, settings.hotSkus()));
        }
        lastEventId = upTo;
        settings.watchList().stream().filter(s -> !s.isBlank()).map(SkuId::of).forEach(busiest::add);
        for (SkuId sku : busiest) {
            Hot entry = hot.get(sku);
            if (entry == null) {
                hot.put(sku, new Hot(now, looks));
            } else {
                entry.lastBusyLook = looks;
            }
        }
        hot.entrySet().removeIf(e -> !e.getValue().elevated && looks - e.getValue().lastBusyLook >= LOOKS_BEFORE_COOLING);
    }

    private void probeDueHotSkus(Instant now) {
        int probed = 0;
        for (Map.Entry<SkuId, Hot> entry : hot.entrySet()) {
            if (probed >= settings.probesPerTickMax()) {
                break;
            }
            Hot state = entry.getValue();
            if (state.due.isAfter(now)) {
                continue;
            }
            probed++;
            try {
                Reading reading = probe.probe(entry.getKey(), false, true).orElse(null);
                state.elevated = reading != null && (reading.level().atLeast(DriftLevel.WARN) || reading.kind().wrong());
            } catch (RuntimeException e) {
                log.warn("probing SKU {} failed: {}", entry.getKey(), e.toString());
            }
            state.due = now.plus(state.elevated ? settings.elevatedInterval() : settings.hotInterval());
        }
    }

    private void sweep() {
        long started = System.nanoTime();
        List<SkuId> page = ledger.page(sweepAfter, settings.sweepBatch());
        sweepAfter = page.size() < settings.sweepBatch() ? null : page.get(page.size() - 1).value();
        for (SkuId sku : page) {
            try {
                probe.probe(sku, true, false);
            } catch (RuntimeException e) {
                log.warn("sweeping SKU {} failed: {}", sku, e.toString());
            }
        }
        lastSweep = new SweepCost(page.size(), (System.nanoTime() - started) / 1_000_000);
        log.debug("probe sweep: {} SKUs in {} ms", page.size(), lastSweep.millis());
    }

    private void safeTick() {
        try {
            tick();
        } catch (RuntimeException e) {
            // The database or hot store is down for a moment: the next tick tries again.
            log.warn("reconciliation probe tick failed: {}", e.toString());
        }
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled() || thread != null) {
            return;
        }
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "stockguard-probe");
            t.setDaemon(true);
            return t;
        });
        long tickMillis = settings.tick().toMillis();
        thread.scheduleWithFixedDelay(this::safeTick, tickMillis, tickMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (thread != null) {
            thread.shutdownNow();
            thread = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return thread != null;
    }
}
