package io.stockguard.reservation;

import io.stockguard.platform.Caller;
import io.stockguard.stock.SkuId;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The catalogue in bulk, for imports and exports of tens of thousands of SKUs. Creating a SKU is
 * the database's job in every tier (the hot store loads a SKU on its first use or a preheat), so
 * new SKUs can be written many to a transaction; changing an existing SKU goes through
 * {@link Reservations#apply}, one SKU at a time, to whoever owns it.
 */
public interface SkuCatalogue {

    /**
     * Creates, in one transaction, every SKU of {@code skus} that does not exist, exactly as
     * {@link StockCommand.Upsert} would (its buckets and their journal events), and reports the
     * others as they are stored. The SKUs must be distinct. No audit entry per SKU: the caller
     * audits the import as a whole. When the transaction fails (a concurrent creation of one of
     * them included) it throws and nothing is created.
     */
    Batch createAbsent(List<StockCommand.Upsert> skus, Caller caller);

    /**
     * Brings the database's statistics up to date after many SKUs were created, so that its plans
     * fit the catalogue's new size at once rather than after the next automatic analysis.
     */
    void refreshStatistics();

    /** SKUs in id order after {@code after} (null: from the first), at most {@code limit}. */
    List<Entry> page(SkuId after, int limit);

    /**
     * What a SKU is in the catalogue: the columns of an import or export line, as the database
     * has them.
     *
     * @param soldByHotStore the hot store owns the SKU (or is handing it over): its counters there
     *     may be ahead of the database's while the journal catches up
     */
    record Entry(SkuId skuId, long total, int bucketCount, long safetyStock, SkuTerms terms,
            boolean soldByHotStore) {

        public Entry {
            terms = terms == null ? SkuTerms.NONE : terms;
        }
    }

    /** The outcome of {@link #createAbsent}: which SKUs were created, and how the others stand. */
    record Batch(Set<SkuId> created, Map<SkuId, Entry> existing) {
    }
}
