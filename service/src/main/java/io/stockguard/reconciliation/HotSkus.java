package io.stockguard.reconciliation;

import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SKUs the probe's schedule watches on a fast cadence, and when each is next due: the busiest
 * by journal rows at each look, the watch list, and any SKU found wrong. A SKU found wrong stays
 * on the elevated cadence until {@code clean-probes-to-clear} clean readings in a row; a busy one
 * leaves once it has not been among the busiest for a few looks. Used by the schedule's one
 * thread only, so it holds no lock of its own.
 */
final class HotSkus {

    /** A SKU not among the busiest for this many looks (and in step) leaves the hot set. */
    private static final int LOOKS_BEFORE_COOLING = 3;

    private final ReconciliationProperties settings;
    private final Map<SkuId, Hot> hot = new HashMap<>();
    private long looks;

    /** A hot SKU: when it is next due, and the look at which it was last among the busiest. */
    private static final class Hot {
        Instant due;
        long lastBusyLook;
        boolean elevated;
        /** Clean readings since it was last elevated: it stays on the fast cadence until it has enough. */
        int cleanSince;

        Hot(Instant due, long look) {
            this.due = due;
            this.lastBusyLook = look;
        }
    }

    HotSkus(ReconciliationProperties settings) {
        this.settings = settings;
    }

    /** One look: the busiest SKUs join (due now) or stay; those busy no longer and in step leave. */
    void look(List<SkuId> busiest, Instant now) {
        looks++;
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

    /** The SKUs due at {@code now}, at most {@code max} of them. */
    List<SkuId> due(Instant now, int max) {
        List<SkuId> due = new ArrayList<>();
        for (Map.Entry<SkuId, Hot> entry : hot.entrySet()) {
            if (due.size() >= max) {
                break;
            }
            if (!entry.getValue().due.isAfter(now)) {
                due.add(entry.getKey());
            }
        }
        return due;
    }

    /** A probe of a hot SKU answered (null: the SKU is gone): it moves to or off the elevated cadence. */
    void observe(SkuId sku, Reading reading) {
        Hot state = hot.get(sku);
        if (state != null) {
            observe(state, reading);
        }
    }

    /** A hot SKU was probed at {@code now} (whatever came of it): it is next due one interval on. */
    void probed(SkuId sku, Instant now) {
        Hot state = hot.get(sku);
        if (state != null) {
            state.due = now.plus(state.elevated ? settings.elevatedInterval() : settings.hotInterval());
        }
    }

    /** The slow sweep found this SKU wrong: from now on it is probed on the fast cadence like a hot SKU. */
    void foundBySweep(SkuId sku, Reading reading, Instant now) {
        Hot entry = hot.computeIfAbsent(sku, s -> new Hot(now, looks));
        observe(entry, reading);
        entry.due = now.plus(settings.elevatedInterval());
    }

    private void observe(Hot state, Reading reading) {
        if (wrong(reading)) {
            state.elevated = true;
            state.cleanSince = 0;
        } else if (state.elevated && ++state.cleanSince >= settings.cleanProbesToClear()) {
            state.elevated = false;
        }
    }

    /** At or above WARN, or of a kind that is wrong at any size. */
    static boolean wrong(Reading reading) {
        return reading != null && (reading.level().atLeast(DriftLevel.WARN) || reading.kind().wrong());
    }
}
