package io.stockguard.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.hotstore.HotStore;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DriftMeasureTest {

    private static final SkuId SKU = SkuId.of("drift-sku");
    private static final ReconciliationProperties.Levels LEVELS = new ReconciliationProperties.Levels(0.5, 1.0, 3.0);
    private static final Instant AT = Instant.parse("2026-11-11T00:00:00Z");

    /** Database: 2 buckets of 500 units; 100 sold from bucket 0, all applied (A = -100). */
    private static LedgerSide.SkuState database(long appliedSeq) {
        return new LedgerSide.SkuState(SKU, "NORMAL", null, 0, 3, "HOT", List.of(
                new LedgerSide.Bucket(0, 400, 0, 100, -100, 3, appliedSeq),
                new LedgerSide.Bucket(1, 500, 0, 0, 0, 3, 0)));
    }

    @Test
    void aCopyOfAnotherHistoryBehindTheDatabaseLostWrites() {
        HotStore.Snapshot copy = new HotStore.Snapshot(SKU, 3, "NORMAL", 0, List.of(
                new HotStore.HotBucket(0, 420, 0, 80, -80, 80), new HotStore.HotBucket(1, 500, 0, 0, 0, 0)));
        Reading behind = DriftMeasure.otherHistory(database(100), copy, AT);
        assertThat(behind.kind()).isEqualTo(ReadingKind.REGRESSION);
        assertThat(behind.level()).isEqualTo(DriftLevel.FREEZE);
        assertThat(behind.detail()).contains("another Redis history", "lost writes");

        Reading inStep = DriftMeasure.otherHistory(database(80), copy, AT);
        assertThat(inStep.kind()).as("a clean failover: reloaded on next use, nothing lost")
                .isEqualTo(ReadingKind.NOT_COMPARABLE);
    }

    @Test
    void changesInFlightAreNotDrift() {
        // The hot store sold 30 more that the database has not applied yet: R - J stays 400 - (-100).
        HotStore.Snapshot hot = new HotStore.Snapshot(SKU, 3, "NORMAL", 30, List.of(
                new HotStore.HotBucket(0, 370, 0, 130, -130, 130), new HotStore.HotBucket(1, 500, 0, 0, 0, 0)));
        Reading reading = DriftMeasure.hotStore(database(100), hot, LEVELS, AT);
        assertThat(reading.kind()).isEqualTo(ReadingKind.IN_STEP);
        assertThat(reading.units()).isZero();
        assertThat(reading.level()).isEqualTo(DriftLevel.NONE);
        assertThat(reading.inFlight()).isEqualTo(-30);
    }

    @Test
    void anOutOfBandChangeIsReportedToTheUnit() {
        HotStore.Snapshot hot = new HotStore.Snapshot(SKU, 3, "NORMAL", 0, List.of(
                new HotStore.HotBucket(0, 442, 0, 100, -100, 100), new HotStore.HotBucket(1, 500, 0, 0, 0, 0)));
        Reading reading = DriftMeasure.hotStore(database(100), hot, LEVELS, AT);
        assertThat(reading.kind()).isEqualTo(ReadingKind.DRIFT);
        assertThat(reading.units()).isEqualTo(42);
        assertThat(reading.percent()).isEqualTo(4.2);
        assertThat(reading.level()).isEqualTo(DriftLevel.FREEZE);
        assertThat(reading.detail()).contains("bucket 0: +42");
    }

    @Test
    void oppositeDriftsInTwoBucketsDoNotHideEachOther() {
        HotStore.Snapshot hot = new HotStore.Snapshot(SKU, 3, "NORMAL", 0, List.of(
                new HotStore.HotBucket(0, 410, 0, 100, -100, 100), new HotStore.HotBucket(1, 490, 0, 0, 0, 0)));
        Reading reading = DriftMeasure.hotStore(database(100), hot, LEVELS, AT);
        assertThat(reading.units()).isZero();
        assertThat(reading.kind()).isEqualTo(ReadingKind.DRIFT);
        assertThat(reading.level()).isEqualTo(DriftLevel.THROTTLE);
    }

    @Test
    void levelsFollowTheThresholds() {
        assertThat(LEVELS.of(0.49)).isEqualTo(DriftLevel.NONE);
        assertThat(LEVELS.of(0.7)).isEqualTo(DriftLevel.WARN);
        assertThat(LEVELS.of(-2.0)).isEqualTo(DriftLevel.THROTTLE);
        assertThat(LEVELS.of(3.0)).isEqualTo(DriftLevel.THROTTLE);
        assertThat(LEVELS.of(3.01)).isEqualTo(DriftLevel.FREEZE);
    }

    @Test
    void aHotStoreBehindTheDatabaseIsARegressionNotADrift() {
        // The failover lost 20 sales the database already applied: counters and sums went back together.
        HotStore.Snapshot hot = new HotStore.Snapshot(SKU, 3, "NORMAL", 0, List.of(
                new HotStore.HotBucket(0, 420, 0, 80, -80, 80), new HotStore.HotBucket(1, 500, 0, 0, 0, 0)));
        Reading reading = DriftMeasure.hotStore(database(100), hot, LEVELS, AT);
        assertThat(reading.kind()).isEqualTo(ReadingKind.REGRESSION);
        assertThat(reading.level()).isEqualTo(DriftLevel.FREEZE);
        assertThat(reading.detail()).contains("sequence 100").contains("back at 80");
    }

    @Test
    void aRebuildUnderWayIsNotComparedAcrossEpochs() {
        HotStore.Snapshot hot = new HotStore.Snapshot(SKU, 4, "FROZEN", 0, List.of(
                new HotStore.HotBucket(0, 400, 0, 100, -100, 0), new HotStore.HotBucket(1, 500, 0, 0, 0, 0)));
        LedgerSide.SkuState db = database(100);
        Reading reading = DriftMeasure.hotStore(db, hot, LEVELS, AT);
        assertThat(reading.kind()).isEqualTo(ReadingKind.NOT_COMPARABLE);
    }

    @Test
    void aHotStoreThatLostARebuildIsARegression() {
        // The database applied changes of epoch 3; the hot store came back at epoch 2.
        HotStore.Snapshot hot = new HotStore.Snapshot(SKU, 2, "NORMAL", 0, List.of(
                new HotStore.HotBucket(0, 400, 0, 100, -100, 500), new HotStore.HotBucket(1, 500, 0, 0, 0, 0)));
        assertThat(DriftMeasure.hotStore(database(100), hot, LEVELS, AT).kind()).isEqualTo(ReadingKind.REGRESSION);
    }

    @Test
    void aSkuTheHotStoreLostEntirelyIsARegressionButOneNeverServedIsNot() {
        assertThat(DriftMeasure.missing(database(100), AT).kind()).isEqualTo(ReadingKind.REGRESSION);
        assertThat(DriftMeasure.missing(database(0), AT).kind()).isEqualTo(ReadingKind.NOT_LOADED);
    }

    @Test
    void differentBucketCountsAreNotCompared() {
        HotStore.Snapshot hot = new HotStore.Snapshot(SKU, 3, "NORMAL", 0, List.of(
                new HotStore.HotBucket(0, 900, 0, 100, -100, 100)));
        assertThat(DriftMeasure.hotStore(database(100), hot, LEVELS, AT).kind()).isEqualTo(ReadingKind.NOT_COMPARABLE);
    }

    @Test
    void theLedgerCheckReportsCountersThatDisagreeWithTheJournal() {
        Reading reading = DriftMeasure.ledger(database(0), List.of(new LedgerSide.BucketMismatch(0, 5, 0, 0),
                new LedgerSide.BucketMismatch(1, 0, 0, 0)), LEVELS, AT);
        assertThat(reading.kind()).isEqualTo(ReadingKind.LEDGER_MISMATCH);
        assertThat(reading.units()).isEqualTo(5);
        assertThat(reading.level()).isEqualTo(DriftLevel.WARN);
    }
}
