package io.stockguard.reconciliation;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.guard.SkuGuards;
import io.stockguard.platform.Actor;
import io.stockguard.platform.TraceId;
import io.stockguard.hotstore.HotStore;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;

/**
 * Probes one SKU and answers: WARN notifies, THROTTLE rate-limits the SKU cluster-wide, FREEZE (and
 * a regression) stops selling it. A throttle the probe set is lifted after clean probes; a freeze
 * waits for a person unless auto-heal is configured. Modes a person set are never overridden
 * downwards: the probe only ever escalates them.
 */
@Service
public class DriftProbe {

    /** Who the audit log names for the probe's own mode changes. */
    public static final Actor PROBE = new Actor(Actor.Kind.SYSTEM, "reconciliation-probe");

    private static final Logger log = LoggerFactory.getLogger(DriftProbe.class);

    private final LedgerSide ledger;
    private final ObjectProvider<HotStore> hotStore;
    private final Readings readings;
    private final SkuGuards guards;
    private final AutoHeal autoHeal;
    private final ApplicationEventPublisher events;
    private final ReconciliationProperties settings;
    private final DriftMetrics metrics;
    private final Clock clock;
    private final Set<SkuId> belowSafetyStock = ConcurrentHashMap.newKeySet();

    DriftProbe(LedgerSide ledger, ObjectProvider<HotStore> hotStore, Readings readings, SkuGuards guards,
            AutoHeal autoHeal, ApplicationEventPublisher events, ReconciliationProperties settings, MeterRegistry meters,
            Clock clock) {
        this.ledger = ledger;
        this.hotStore = hotStore;
        this.readings = readings;
        this.guards = guards;
        this.autoHeal = autoHeal;
        this.events = events;
        this.settings = settings;
        this.metrics = new DriftMetrics(meters);
        this.clock = clock;
    }

    /** Measures the SKU without acting on it; empty when the SKU does not exist. */
    public Optional<Reading> measure(SkuId sku, boolean checkLedger) {
        Optional<LedgerSide.SkuState> state = ledger.state(sku);
        return state.map(s -> measure(s, checkLedger));
    }

    /** Measures the SKU, keeps the reading and acts on it; empty when the SKU does not exist. */
    public Optional<Reading> probe(SkuId sku, boolean checkLedger, boolean keep) {
        long started = System.nanoTime();
        Optional<LedgerSide.SkuState> state = ledger.state(sku);
        if (state.isEmpty()) {
            return Optional.empty();
        }
        Reading reading = measure(state.get(), checkLedger);
        // Per-SKU gauges for the SKUs probed at the hot cadence and any found wrong, not the whole sweep.
        metrics.measured(reading, System.nanoTime() - started, keep || reading.kind().wrong());
        // While the probe's own throttle stands, every reading is kept: lifting it counts clean ones.
        boolean throttledByProbe = "THROTTLED".equals(state.get().mode())
                && PROBE.toString().equals(state.get().modeChangedBy());
        if (keep || reading.kind().wrong() || throttledByProbe) {
            readings.add(reading);
        }
        respond(state.get(), reading);
        watchSafetyStock(state.get(), reading);
        return Optional.of(reading);
    }

    /**
     * The ledger check first when asked (a database whose counters its journal does not explain is
     * the more precise finding: the same hand edit also shows as hot-store drift of the opposite
     * sign), then hot store against database.
     */
    private Reading measure(LedgerSide.SkuState state, boolean checkLedger) {
        Instant at = clock.instant();
        HotStore hot = hotStore.getIfAvailable();
        if (hot == null || !state.hotOwned()) {
            // The database sells it: its own ledger is what there is to check. Between owners
            // nothing sells it and nothing is compared.
            return "DRAINING".equals(state.owner()) ? Reading.of(state.skuId(), at, ReadingKind.NOT_COMPARABLE,
                    "the SKU is changing hands between the hot store and the database") : ledgerReading(state, at);
        }
        if (checkLedger) {
            Reading ledgerReading = ledgerReading(state, at);
            if (ledgerReading.kind().wrong()) {
                return ledgerReading;
            }
        }
        return hotReading(hot, state, at);
    }

    private Reading ledgerReading(LedgerSide.SkuState state, Instant at) {
        return ledger.ledgerMismatches(state.skuId())
                .map(mismatches -> DriftMeasure.ledger(state, mismatches, settings.levels(), at))
                .orElseGet(() -> Reading.of(state.skuId(), at, ReadingKind.NOT_COMPARABLE, "the ledger check took "
                        + "longer than " + settings.ledgerCheckTimeout() + " (a very long journal) and was not finished"));
    }

    private Reading hotReading(HotStore hot, LedgerSide.SkuState state, Instant at) {
        Optional<HotStore.Snapshot> snapshot;
        try {
            snapshot = hot.snapshot(state.skuId());
        } catch (RuntimeException e) {
            return Reading.of(state.skuId(), at, ReadingKind.UNREACHABLE, "the hot store did not answer: " + e.getMessage());
        }
        if (snapshot.isPresent()) {
            return DriftMeasure.hotStore(state, snapshot.get(), settings.levels(), at);
        }
        Optional<HotStore.Snapshot> stale;
        try {
            stale = hot.copyOfAnotherHistory(state.skuId());
        } catch (RuntimeException e) {
            stale = Optional.empty();
        }
        return stale.map(copy -> DriftMeasure.otherHistory(state, copy, at))
                .orElseGet(() -> DriftMeasure.missing(state, at));
    }

    private void respond(LedgerSide.SkuState state, Reading reading) {
        HotStore hot = hotStore.getIfAvailable();
        if (reading.kind() == ReadingKind.REGRESSION && hot != null) {
            // The hot store lost writes (or the SKU): the database has every acknowledged change, so
            // the SKU is handed to it and reloaded from it, at once and without a person. Told as a
            // FREEZE-level alert, since it is what the post-mortem's worst incident looked like.
            hot.handOver(reading.skuId(), "the probe found a regression: " + reading.detail());
            log.error("SKU {}: REGRESSION ({}); taken from the hot store, which is reloaded from the database",
                    reading.skuId(), reading.detail());
            events.publishEvent(new DriftDetected(reading, state.mode()));
            return;
        }
        if (reading.kind().wrong() && reading.level().atLeast(DriftLevel.WARN)) {
            String modeAfter = escalate(state, reading);
            log.warn("SKU {}: {} of {} units ({}%), level {}: {}; mode now {}", reading.skuId(), reading.kind(),
                    reading.units(), String.format("%.2f", reading.percent()), reading.level(), reading.detail(), modeAfter);
            // Told before any heal starts: a heal that fails must not swallow the alert.
            events.publishEvent(new DriftDetected(reading, modeAfter));
            if (settings.autoHeal() && "FROZEN".equals(modeAfter) && reading.kind() != ReadingKind.LEDGER_MISMATCH) {
                autoHeal.healInBackground(reading);
            }
        } else if (reading.kind() == ReadingKind.IN_STEP && "THROTTLED".equals(state.mode())
                && PROBE.toString().equals(state.modeChangedBy()) && clean(reading.skuId())) {
            guards.restoreIfStillOwn(reading.skuId(), SkuMode.THROTTLED, SkuMode.NORMAL, 0, "reconciliation probe: "
                    + settings.cleanProbesToClear() + " clean probes in a row, the throttle it set is lifted", PROBE,
                    TraceId.random());
        } else if (reading.kind().wrong()) {
            log.info("SKU {}: {} of {} units ({}%), under the warn level: {}", reading.skuId(), reading.kind(),
                    reading.units(), String.format("%.3f", reading.percent()), reading.detail());
        }
    }

    /**
     * Raises the SKU's mode to what the level asks, never lowering it and never acting on a mode
     * changed since the reading (the guard decides under the SKU's lock); returns the mode it is in.
     */
    private String escalate(LedgerSide.SkuState state, Reading reading) {
        String why = "reconciliation probe: " + reading.kind() + " " + (reading.units() > 0 ? "+" : "") + reading.units()
                + " units (" + String.format("%.2f", reading.percent()) + "% of " + reading.total() + "); "
                + reading.detail();
        why = why.length() > 480 ? why.substring(0, 479) + "…" : why;
        SkuMode target = reading.level() == DriftLevel.FREEZE ? SkuMode.FROZEN
                : reading.level() == DriftLevel.THROTTLE ? SkuMode.THROTTLED : null;
        if (target != null) {
            guards.escalate(reading.skuId(), target, settings.throttleRatePerSecond(), why, PROBE, TraceId.random());
        }
        return guards.mode(reading.skuId()).map(m -> m.mode().name()).orElse(state.mode());
    }

    /** The last {@code cleanProbesToClear} readings (this one included, kept while throttled) were in step. */
    private boolean clean(SkuId sku) {
        List<Reading> newest = readings.newest(sku, settings.cleanProbesToClear());
        return newest.size() == settings.cleanProbesToClear()
                && newest.stream().allMatch(r -> r.kind() == ReadingKind.IN_STEP);
    }

    private void watchSafetyStock(LedgerSide.SkuState state, Reading reading) {
        if (state.safetyStock() <= 0) {
            return;
        }
        long available = state.available();
        if (available < state.safetyStock()) {
            if (belowSafetyStock.add(state.skuId())) {
                log.warn("SKU {}: available {} is below its safety stock {}", state.skuId(), available,
                        state.safetyStock());
                events.publishEvent(new SafetyStockLow(state.skuId(), available, state.safetyStock(), reading.measuredAt()));
            }
        } else {
            belowSafetyStock.remove(state.skuId());
        }
    }
}
