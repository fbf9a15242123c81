package io.stockguard.reconciliation;

import io.stockguard.stock.SkuId;
import java.util.List;
import java.util.Optional;

/** The database's side of reconciliation, each read in one consistent statement. */
public interface LedgerSide {

    /** The SKU's mode, hot-store ownership and buckets with their applied sums and stamps. */
    Optional<SkuState> state(SkuId sku);

    /**
     * Per bucket, the counters minus the sums of the journal's deltas (all zero when the ledger is
     * sound); empty when summing the SKU's journal took longer than its time limit.
     */
    Optional<List<BucketMismatch>> ledgerMismatches(SkuId sku);

    /** Journal events not yet resolved as anomalies (refused changes), for the reading's detail. */
    long openAnomalies(SkuId sku);

    /** The highest journal row id now (where the next look for the busiest SKUs starts). */
    long lastEventId();

    /** The busiest SKUs by journal rows in {@code (afterId, upToId]}, busiest first. */
    List<SkuId> busiest(long afterId, long upToId, int limit);

    /** The next page of SKU ids after {@code afterSku} (null for the first), in id order. */
    List<SkuId> page(String afterSku, int limit);

    /**
     * @param owner who sells the SKU: {@code DATABASE}, {@code HOT} (the hot store at {@code hotEpoch})
     *     or {@code DRAINING} (changing hands)
     */
    record SkuState(SkuId skuId, String mode, String modeChangedBy, long safetyStock, long hotEpoch, String owner,
            List<Bucket> buckets) {

        public boolean hotOwned() {
            return "HOT".equals(owner);
        }


        public long total() {
            return buckets.stream().mapToLong(b -> b.available() + b.reserved() + b.sold()).sum();
        }

        public long available() {
            return buckets.stream().mapToLong(Bucket::available).sum();
        }
    }

    record Bucket(int bucket, long available, long reserved, long sold, long appliedSum, long appliedEpoch,
            long appliedSeq) {
    }

    record BucketMismatch(int bucket, long available, long reserved, long sold) {

        public boolean sound() {
            return available == 0 && reserved == 0 && sold == 0;
        }
    }
}
