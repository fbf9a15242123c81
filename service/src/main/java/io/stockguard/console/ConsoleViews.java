package io.stockguard.console;

import io.stockguard.audit.AuditEntry;
import io.stockguard.journal.StockEvent;
import io.stockguard.hotstore.HotStore;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.SkuStockView;
import java.time.Instant;
import java.util.List;

/** The view models of the console's pages: what each page shows, already read and combined. */
public final class ConsoleViews {

    private ConsoleViews() {
    }

    /** The hot store's copy of a SKU next to the database's, where the Redis tier is on. */
    public record HotComparison(String state, Long available, Long reserved, Long sold, Long epoch, Long outbox,
            String mode) {

        public static final String NOT_LOADED = "not loaded";
        public static final String UNREADABLE = "unreadable";
        public static final String LOADED = "loaded";

        static HotComparison of(HotStore.Snapshot snapshot) {
            long available = snapshot.buckets().stream().mapToLong(HotStore.HotBucket::available).sum();
            long reserved = snapshot.buckets().stream().mapToLong(HotStore.HotBucket::reserved).sum();
            long sold = snapshot.buckets().stream().mapToLong(HotStore.HotBucket::sold).sum();
            return new HotComparison(LOADED, available, reserved, sold, snapshot.epoch(), snapshot.outboxLength(),
                    snapshot.mode());
        }

        static HotComparison without(String state) {
            return new HotComparison(state, null, null, null, null, null, null);
        }
    }

    /**
     * One SKU on the overview. {@code hot} is null in the embedded tier, {@code drift} while no probe
     * runs; {@code driftHistory} holds the newest readings, oldest first, for the row's sparkline.
     */
    public record OverviewRow(ConsoleQueries.SkuRow sku, HotComparison hot, ProbeReadings.Drift drift,
            List<ProbeReadings.Drift> driftHistory) {
    }

    /**
     * @param probeRunning false while no reconciliation probe provides readings (it is switched off)
     * @param alerts the probe's alert feed; empty while it does not run
     * @param server the Redis this instance follows; null in the embedded tier or when it could not be asked
     */
    public record Overview(List<OverviewRow> rows, long skuCount, String filter, boolean soldOutOnly, boolean hotTier,
            HotStore.PreheatStatus preheat, boolean probeRunning, List<ProbeReadings.Alert> alerts,
            HotStore.Server server) {
    }

    /**
     * @param hot the hot store's buckets, null when the SKU is not loaded or the tier has none
     * @param hotState {@link HotComparison} states, or null in the embedded tier
     * @param modeHistory audit rows that changed or re-set the SKU's mode, newest first
     * @param history every audit row of the SKU, newest first
     * @param driftHistory the probe's readings, oldest first; empty while it runs none or measured none
     */
    public record SkuPage(SkuStockView stock, HotStore.Snapshot hot, String hotState, List<StockEvent> journal,
            List<AuditEntry> modeHistory, List<AuditEntry> history, List<ConsoleQueries.AnomalyRow> anomalies,
            boolean hotTier, boolean probeRunning, ProbeReadings.Drift drift, List<ProbeReadings.Drift> driftHistory) {
    }

    /** One step in an order's life, from whichever layer recorded it. */
    public record TraceStep(Instant at, String layer, String what, String traceId) {
    }

    /**
     * An order across every layer.
     *
     * @param database the reservation row as the database holds it; null when the database has none
     * @param served the order as the API answers it right now (the hot store's view in the Redis tier)
     * @param hot the hot store's own record; null when it has none or the tier has no hot store
     */
    public record OrderTrace(String orderId, ConsoleQueries.ReservationRow database, ReservationView served,
            HotStore.HotOrder hot, String hotState, List<StockEvent> events, List<ConsoleQueries.PendingRow> pending,
            List<TraceStep> steps, List<String> traceIds, boolean hotTier, boolean eventsTruncated) {

        public boolean found() {
            return database != null || served != null || hot != null || !events.isEmpty() || !pending.isEmpty();
        }
    }
}
