package io.stockguard.ledger;

import io.stockguard.journal.EventIds;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockEvents;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * All buckets of one SKU, locked by the current transaction, as a plan of changes made in memory
 * and written back once. Planning several takes on one set is how one transaction serves many
 * reservations of a hot SKU; every change is also an event, so the written counters remain the
 * sums of the journal.
 */
final class BucketSet {

    private final SkuId skuId;
    private final SkuMode mode;
    private final long[] available;
    private final long[] reserved;
    private final long[] sold;
    /** available - applied sum per bucket: constant under journaled changes, the database's side of the drift identity. */
    private final long[] base;
    private final long[] netAvailable;
    private final long[] netReserved;
    private final long[] netSold;
    private final List<StockEvent> events = new ArrayList<>();

    private BucketSet(SkuId skuId, SkuMode mode, List<BucketRows.Row> rows) {
        this.skuId = skuId;
        this.mode = mode;
        int n = rows.size();
        available = new long[n];
        reserved = new long[n];
        sold = new long[n];
        base = new long[n];
        netAvailable = new long[n];
        netReserved = new long[n];
        netSold = new long[n];
        for (int i = 0; i < n; i++) {
            BucketRows.Row row = rows.get(i);
            if (row.bucket() != i) {
                throw new LedgerInvariantViolation("SKU " + skuId + " lacks bucket " + i + " (found " + row.bucket() + ")");
            }
            available[i] = row.available();
            reserved[i] = row.reserved();
            sold[i] = row.sold();
            base[i] = row.available() - row.appliedSum();
        }
    }

    /** @param rows every bucket of the SKU, in bucket order, locked by the caller */
    static BucketSet of(SkuId skuId, List<BucketRows.Row> rows) {
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("SKU " + skuId + " has no buckets");
        }
        return new BucketSet(skuId, rows.getFirst().mode(), rows);
    }

    SkuId skuId() {
        return skuId;
    }

    boolean sells() {
        return mode.sells();
    }

    /** True when the event names a bucket of this SKU and would leave every counter at zero or above. */
    boolean fits(StockEvent event) {
        int b = event.bucket();
        return b < available.length && available[b] + event.deltaAvailable() >= 0
                && reserved[b] + event.deltaReserved() >= 0 && sold[b] + event.deltaSold() >= 0;
    }

    /**
     * The database's D - A of the event's bucket. In a correct system the hot store's R - J equals
     * it whatever is still in flight, because every journaled change moves both sides alike.
     */
    long base(int bucket) {
        return base[bucket];
    }

    /** Plans an event made elsewhere (by the hot store); the caller has checked {@link #fits}. */
    void apply(StockEvent event) {
        plan(event);
    }

    long available() {
        return Arrays.stream(available).sum();
    }

    /**
     * Plans one line's order events on its home bucket, transferring stock into home first when
     * home is short but the SKU is not (I8). Returns false, planning nothing, when the SKU as a
     * whole has less than the line needs.
     *
     * @param lineEvents the line's events on {@code home}; their net change of available is the
     *     quantity taken
     */
    boolean take(int home, List<StockEvent> lineEvents, StockEvents.Context context) {
        long needed = -lineEvents.stream().mapToLong(StockEvent::deltaAvailable).sum();
        if (available() < needed) {
            return false;
        }
        if (available[home] < needed) {
            refill(home, needed, context);
        }
        lineEvents.forEach(this::plan);
        return true;
    }

    /**
     * Refills home from the fullest buckets, up to the larger of what is needed and an even share
     * of the SKU's available stock: topping up to an even share spares the next orders homed
     * there another transfer.
     */
    private void refill(int home, long needed, StockEvents.Context context) {
        long total = available();
        long target = Math.min(total, Math.max(needed, total / available.length));
        long missing = target - available[home];
        List<Integer> donors = IntStream.range(0, available.length).filter(b -> b != home).boxed()
                .sorted(Comparator.comparingLong((Integer b) -> available[b]).reversed()).toList();
        for (int donor : donors) {
            long take = Math.min(missing, available[donor]);
            if (take <= 0) {
                break;
            }
            String transferId = EventIds.next();
            plan(StockEvents.transferOut(skuId, donor, take, transferId, context));
            plan(StockEvents.transferIn(skuId, home, take, transferId, context));
            missing -= take;
        }
    }

    private void plan(StockEvent event) {
        int b = event.bucket();
        available[b] += event.deltaAvailable();
        reserved[b] += event.deltaReserved();
        sold[b] += event.deltaSold();
        if (available[b] < 0 || reserved[b] < 0 || sold[b] < 0) {
            throw new LedgerInvariantViolation("a planned " + event.op() + " drives bucket " + skuId + "/" + b
                    + " negative");
        }
        netAvailable[b] += event.deltaAvailable();
        netReserved[b] += event.deltaReserved();
        netSold[b] += event.deltaSold();
        events.add(event);
    }

    /** Every event planned so far, in order: what the journal must record. */
    List<StockEvent> events() {
        return List.copyOf(events);
    }

    /** Writes the net change of every changed bucket; the caller still holds the locks. */
    void writeTo(BucketRows rows) {
        rows.applyNetOrFail(changes());
    }

    /** The net change of every changed bucket, for writing several sets in one batch. */
    List<BucketRows.NetChange> changes() {
        List<BucketRows.NetChange> changes = new ArrayList<>();
        for (int b = 0; b < available.length; b++) {
            if (netAvailable[b] != 0 || netReserved[b] != 0 || netSold[b] != 0) {
                changes.add(new BucketRows.NetChange(skuId, b, netAvailable[b], netReserved[b], netSold[b]));
            }
        }
        return changes;
    }
}
