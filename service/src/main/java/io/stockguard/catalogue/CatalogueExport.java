package io.stockguard.catalogue;

import io.stockguard.journal.JournalProgress;
import io.stockguard.hotstore.HotStore;
import io.stockguard.reservation.Reservations;
import io.stockguard.reservation.SkuCatalogue;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.stock.SkuId;
import java.io.IOException;
import java.io.Writer;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * Writes the catalogue in an import's format, page by page, in id order, from the database. In the
 * full tier the database's counters trail Redis by the journal's backlog, and an export fed back
 * as an import must not set a SKU back to what it was before a restock the journal had not applied
 * yet: so the export first waits (briefly) for the journal to apply everything acknowledged so
 * far, and if it cannot, reads each SKU Redis sells from Redis instead (about a millisecond each
 * here, against a few microseconds from the database).
 */
@Service
public class CatalogueExport {

    /** SKUs read per page: one index range each, and never the whole catalogue in memory. */
    private static final int PAGE = 1_000;
    /** How long an export waits for the journal's backlog to be applied before it reads Redis instead. */
    private static final Duration CATCH_UP_MAX = Duration.ofSeconds(5);

    private final SkuCatalogue catalogue;
    private final Reservations reservations;
    private final ObjectProvider<HotStore> hotStore;
    private final JournalProgress journal;

    CatalogueExport(SkuCatalogue catalogue, Reservations reservations, ObjectProvider<HotStore> hotStore,
            JournalProgress journal) {
        this.catalogue = catalogue;
        this.reservations = reservations;
        this.hotStore = hotStore;
        this.journal = journal;
    }

    public void write(CatalogueFormat format, Writer out) throws IOException {
        boolean readRedis = hotStore.getIfAvailable() != null && !journal.awaitAllApplied(CATCH_UP_MAX);
        out.write(format.header());
        SkuId after = null;
        while (true) {
            List<SkuCatalogue.Entry> page = catalogue.page(after, PAGE);
            for (SkuCatalogue.Entry entry : page) {
                out.write(format.line(readRedis && entry.soldByHotStore() ? current(entry) : entry));
            }
            if (page.size() < PAGE) {
                break;
            }
            after = page.getLast().skuId();
        }
        out.flush();
    }

    private SkuCatalogue.Entry current(SkuCatalogue.Entry stored) {
        return reservations.stock(stored.skuId()).map(CatalogueExport::entry).orElse(stored);
    }

    /** A SKU's stock as a catalogue line states it. */
    static SkuCatalogue.Entry entry(SkuStockView view) {
        return new SkuCatalogue.Entry(view.skuId(), view.total(), view.bucketCount(), view.safetyStock(),
                view.terms(), false);
    }
}
