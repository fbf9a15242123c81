package io.stockguard.reconciliation;

import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.List;

/** Where drift readings are kept: for the console's chart, for "two clean probes", for audits. */
public interface Readings {

    void add(Reading reading);

    /** The SKU's newest readings, newest first, at most {@code limit}. */
    List<Reading> newest(SkuId sku, int limit);

    /** The newest readings that found something wrong, any SKU, newest first. */
    List<Reading> newestWrong(int limit);

    /** Deletes up to {@code limit} readings measured before {@code before}; returns how many. */
    int prune(Instant before, int limit);
}
