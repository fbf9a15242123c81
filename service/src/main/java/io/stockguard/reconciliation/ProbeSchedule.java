package io.stockguard.reconciliation;

import io.stockguard.platform.DutyLeases;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 * it cannot pile up, and it never runs on a request thread. Among instances sharing a database,
 * one holds the schedule's lease and probes; the others stand by (one alert and one audit row per
 * finding, not one per instance) and take over when its lease expires.
 */
@Component
class ProbeSchedule implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ProbeSchedule.class);
    private static final int PRUNE_BATCH = 5_000;
    static final String DUTY = "reconciliation-probe";

    private final DriftProbe probe;
    private final DutyLeases leases;
    private final LedgerSide ledger;
    private final Readings readings;
    private final ReconciliationProperties settings;
    private final Clock clock;
    private final HotSkus hot;
    private ScheduledExecutorService thread;
    private long lastEventId = -1;
    private Instant nextLook = Instant.EPOCH;
    private Instant nextSweep = Instant.EPOCH;
    private Instant nextPrune = Instant.EPOCH;
    private String sweepAfter;
    private volatile SweepCost lastSweep;
    private volatile boolean holdsLease;
    private long leaseRenewedNanos;

    /** The cost of the last sweep page: SKUs probed and milliseconds taken. */
    record SweepCost(int skus, long millis) {

        double millisPerThousandSkus() {
            return skus == 0 ? 0 : millis * 1000.0 / skus;
        }
    }

    ProbeSchedule(DriftProbe probe, DutyLeases leases, LedgerSide ledger, Readings readings,
            ReconciliationProperties settings, Clock clock) {
        this.probe = probe;
        this.leases = leases;
        this.ledger = ledger;
        this.readings = readings;
        this.settings = settings;
        this.clock = clock;
        this.hot = new HotSkus(settings);
    }

    SweepCost lastSweep() {
        return lastSweep;
    }

    /** Whether this instance holds the schedule's lease (and so is the one probing). */
    boolean holdsLease() {
        return holdsLease;
    }

    /** One pass of the schedule; the thread calls it every tick (tests may call it directly). */
    synchronized void tick() {
        boolean held = leases.hold(DUTY, settings.lease());
        leaseRenewedNanos = System.nanoTime();
        if (held != holdsLease) {
            log.info(held ? "this instance now runs the reconciliation probe ({})"
                    : "another instance runs the reconciliation probe now; {} stands by", leases.holder());
            holdsLease = held;
            // A new holder starts from now: what the last one saw since its last look is not replayed.
            lastEventId = -1;
        }
        if (!held) {
            return;
        }
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
        long upTo = ledger.lastEventId();
        List<SkuId> busiest = new ArrayList<>();
        if (lastEventId >= 0 && settings.hotSkus() > 0) {
            long from = Math.max(lastEventId, upTo - settings.busiestScanEventsMax());
            busiest.addAll(ledger.busiest(from, upTo, settings.hotSkus()));
        }
        lastEventId = upTo;
        settings.watchList().stream().filter(s -> !s.isBlank()).map(SkuId::of).forEach(busiest::add);
        hot.look(busiest, now);
    }

    private void probeDueHotSkus(Instant now) {
        for (SkuId sku : hot.due(now, settings.probesPerTickMax())) {
            if (!renewLease()) {
                return;
            }
            try {
                hot.observe(sku, probe.probe(sku, false, true).orElse(null));
            } catch (RuntimeException e) {
                log.warn("probing SKU {} failed: {}", sku, e.toString());
            }
            hot.probed(sku, now);
        }
    }

    /**
     * Renews the lease once a third of it has passed. A tick can be long (a sweep page, a slow hot
     * store), and a lease renewed only at its start could expire under it, letting a second
     * instance probe too. False when the lease was lost: the tick stops.
     */
    private boolean renewLease() {
        long now = System.nanoTime();
        if (now - leaseRenewedNanos < settings.lease().toNanos() / 3) {
            return true;
        }
        holdsLease = leases.hold(DUTY, settings.lease());
        leaseRenewedNanos = now;
        return holdsLease;
    }

    private void sweep() {
        long started = System.nanoTime();
        List<SkuId> page = ledger.page(sweepAfter, settings.sweepBatch());
        sweepAfter = page.size() < settings.sweepBatch() ? null : page.get(page.size() - 1).value();
        for (SkuId sku : page) {
            if (!renewLease()) {
                return;
            }
            try {
                Reading reading = probe.probe(sku, true, false).orElse(null);
                if (HotSkus.wrong(reading)) {
                    hot.foundBySweep(sku, reading, clock.instant());
                }
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
            if (holdsLease) {
                try {
                    leases.release(DUTY);
                } catch (RuntimeException e) {
                    log.debug("could not give the probe's lease back; it expires by itself: {}", e.toString());
                }
                holdsLease = false;
            }
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return thread != null;
    }
}
