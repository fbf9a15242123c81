package io.stockguard.reservation.jdbc;

import io.stockguard.journal.EventIds;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockEvents;
import io.stockguard.stock.SkuId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Moves available stock between the buckets of one SKU, as journaled transfers, when an order's
 * home bucket is short but the SKU is not.
 */
final class BucketTransfers {

    private final BucketRows buckets;

    BucketTransfers(BucketRows buckets) {
        this.buckets = buckets;
    }

    /**
     * Refills {@code home} from the fullest buckets, up to the larger of what the order needs and an
     * even share of the SKU's available stock. Topping up to an even share, not just the shortfall,
     * spares the next orders homed there another transfer. The caller holds every bucket's lock
     * ({@code rows}) and has checked that the SKU holds at least {@code needed}. Returns the
     * applied transfer events for the journal.
     */
    List<StockEvent> refill(SkuId skuId, int home, long needed, List<BucketRows.Row> rows,
            StockEvents.Context context) {
        long available = rows.stream().mapToLong(BucketRows.Row::available).sum();
        BucketRows.Row homeRow = rows.stream().filter(row -> row.bucket() == home).findFirst()
                .orElseThrow(() -> new LedgerInvariantViolation("SKU " + skuId + " has no bucket " + home));
        long target = Math.min(available, Math.max(needed, available / rows.size()));
        long missing = target - homeRow.available();
        List<StockEvent> events = new ArrayList<>();
        List<BucketRows.Row> donors = rows.stream().filter(row -> row.bucket() != home)
                .sorted(Comparator.comparingLong(BucketRows.Row::available).reversed()).toList();
        for (BucketRows.Row donor : donors) {
            if (missing <= 0) {
                break;
            }
            long take = Math.min(missing, donor.available());
            if (take <= 0) {
                break;
            }
            String transferId = EventIds.next();
            StockEvent out = StockEvents.transferOut(skuId, donor.bucket(), take, transferId, context);
            StockEvent in = StockEvents.transferIn(skuId, home, take, transferId, context);
            buckets.applyOrFail(skuId, donor.bucket(), List.of(out));
            buckets.applyOrFail(skuId, home, List.of(in));
            events.add(out);
            events.add(in);
            missing -= take;
        }
        return events;
    }
}
