package io.stockguard.reconciliation;

import io.stockguard.hotstore.HotStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The arithmetic of a reading, free of I/O. Per bucket, the hot store's {@code R - J} and the
 * database's {@code D - A} each stay constant under every change the service makes (each change
 * moves a store's counter and its cumulative sum together), so their difference is exactly the
 * change made behind the service's back, whatever is in flight and whenever each side was read.
 */
final class DriftMeasure {

    private DriftMeasure() {
    }

    /**
     * @param database read first: the hot store's sequences, read after it, can only be further on,
     *     so a hot sequence behind the database's means lost writes, never a race of the two reads
     */
    static Reading hotStore(LedgerSide.SkuState database, HotStore.Snapshot hot, ReconciliationProperties.Levels levels,
            Instant at) {
        String regression = regression(database, hot);
        if (regression != null) {
            return new Reading(database.skuId(), at, ReadingKind.REGRESSION, DriftLevel.FREEZE, 0, 0, database.total(),
                    0, regression);
        }
        if (hot.epoch() != database.hotEpoch()) {
            return Reading.of(database.skuId(), at, ReadingKind.NOT_COMPARABLE, "the hot store has epoch " + hot.epoch()
                    + ", the database " + database.hotEpoch() + ": a rebuild is under way");
        }
        if (hot.buckets().size() != database.buckets().size()) {
            return Reading.of(database.skuId(), at, ReadingKind.NOT_COMPARABLE, "the hot store has "
                    + hot.buckets().size() + " buckets, the database " + database.buckets().size());
        }
        long units = 0;
        long absolute = 0;
        long inFlight = 0;
        List<String> differing = new ArrayList<>();
        for (int b = 0; b < hot.buckets().size(); b++) {
            HotStore.HotBucket h = hot.buckets().get(b);
            LedgerSide.Bucket d = database.buckets().get(b);
            long drift = (h.available() - h.journaledSum()) - (d.available() - d.appliedSum());
            units += drift;
            absolute += Math.abs(drift);
            inFlight += h.journaledSum() - d.appliedSum();
            if (drift != 0) {
                differing.add("bucket " + b + ": " + signed(drift));
            }
        }
        return of(database, units, absolute, inFlight, units == 0 && absolute == 0 ? ReadingKind.IN_STEP
                : ReadingKind.DRIFT, differing.isEmpty() ? "in step" : String.join(", ", differing), levels, at);
    }

    /**
     * The hot store's copy is of another Redis history (a failover or restart since it was loaded):
     * nothing is sold from it, and the next request loads the SKU again. Behind what the database
     * applied, it lost writes: a regression, told as one and handed over at once.
     */
    static Reading otherHistory(LedgerSide.SkuState database, HotStore.Snapshot copy, Instant at) {
        String regression = regression(database, copy);
        if (regression != null) {
            return new Reading(database.skuId(), at, ReadingKind.REGRESSION, DriftLevel.FREEZE, 0, 0, database.total(),
                    0, "a failover or restart left a copy of another Redis history; " + regression);
        }
        return Reading.of(database.skuId(), at, ReadingKind.NOT_COMPARABLE, "a failover or restart left a copy of "
                + "another Redis history, in step with the database; the SKU is loaded again on its next use");
    }

    /**
     * The hot store does not have the SKU. Before it was ever loaded that is normal; but when the
     * database has applied changes the hot store made in its current epoch, the hot store lost the
     * SKU (a flush, a failover to an empty replica): a regression, whatever it sells next.
     */
    static Reading missing(LedgerSide.SkuState database, Instant at) {
        boolean servedInThisEpoch = database.hotEpoch() > 0 && database.buckets().stream()
                .anyMatch(b -> b.appliedEpoch() == database.hotEpoch() && b.appliedSeq() > 0);
        if (servedInThisEpoch) {
            return new Reading(database.skuId(), at, ReadingKind.REGRESSION, DriftLevel.FREEZE, 0, 0, database.total(), 0,
                    "the hot store lost the SKU: the database applied its changes of epoch " + database.hotEpoch()
                            + ", and the hot store no longer has it");
        }
        return Reading.of(database.skuId(), at, ReadingKind.NOT_LOADED, "not in the hot store yet");
    }

    /** The database tier's check: counters against the sums of the journal, per bucket. */
    static Reading ledger(LedgerSide.SkuState database, List<LedgerSide.BucketMismatch> mismatches,
            ReconciliationProperties.Levels levels, Instant at) {
        long units = 0;
        long absolute = 0;
        List<String> differing = new ArrayList<>();
        for (LedgerSide.BucketMismatch m : mismatches) {
            if (!m.sound()) {
                units += m.available();
                absolute += Math.abs(m.available()) + Math.abs(m.reserved()) + Math.abs(m.sold());
                differing.add("bucket " + m.bucket() + ": available " + signed(m.available()) + ", reserved "
                        + signed(m.reserved()) + ", sold " + signed(m.sold()) + " against the journal");
            }
        }
        return of(database, units, absolute, 0, absolute == 0 ? ReadingKind.IN_STEP : ReadingKind.LEDGER_MISMATCH,
                differing.isEmpty() ? "counters match the journal" : String.join(", ", differing), levels, at);
    }

    private static Reading of(LedgerSide.SkuState database, long units, long absolute, long inFlight, ReadingKind kind,
            String detail, ReconciliationProperties.Levels levels, Instant at) {
        long total = database.total();
        double percent = percent(units, total);
        DriftLevel level = absolute == 0 ? DriftLevel.NONE : levels.of(percent(absolute, total));
        return new Reading(database.skuId(), at, kind, level, units, percent, total, inFlight, detail);
    }

    /** A hot bucket behind what the database applied from it: the hot store lost writes (I5). */
    private static String regression(LedgerSide.SkuState database, HotStore.Snapshot hot) {
        for (LedgerSide.Bucket d : database.buckets()) {
            if (d.appliedEpoch() > hot.epoch()) {
                return "the database applied changes of epoch " + d.appliedEpoch() + " to bucket " + d.bucket()
                        + ", the hot store is at epoch " + hot.epoch() + ": it lost a rebuild and what followed";
            }
            if (d.appliedEpoch() == hot.epoch() && d.bucket() < hot.buckets().size()
                    && d.appliedSeq() > hot.buckets().get(d.bucket()).sequence()) {
                return "bucket " + d.bucket() + ": the database applied its changes up to sequence " + d.appliedSeq()
                        + ", the hot store is back at " + hot.buckets().get(d.bucket()).sequence()
                        + ": it lost writes";
            }
        }
        return null;
    }

    /** Drift in percent of the total; any drift of a SKU with nothing in it is 100 %. */
    static double percent(long units, long total) {
        if (units == 0) {
            return 0;
        }
        return total == 0 ? Math.signum(units) * 100.0 : units * 100.0 / total;
    }

    private static String signed(long value) {
        return value > 0 ? "+" + value : Long.toString(value);
    }
}
