package io.stockguard.bench.stockguard;

import io.stockguard.bench.Catalogue;
import io.stockguard.stock.SkuId;
import io.stockguard.testkit.TestDatabase;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The HTTP ceiling: the service exactly as the database tier starts it (security, JSON, validation,
 * observation, the same requests), with its ledger replaced by a {@link MemoryLedger}. What a tier
 * reaches over HTTP, as a share of this, is what its store leaves of the HTTP stack's speed; the
 * rest is the stack's own. Not a way to run StockGuard: it keeps nothing.
 */
public final class CeilingContender extends LedgerContender {

    public CeilingContender(String name, Supplier<TestDatabase> databases, Transport http) {
        super(name, "The HTTP ceiling: the service's HTTP stack (API key, JSON in and out, validation, metrics "
                + "and tracing) in front of a ledger that is a counter in memory (no store, no journal, no "
                + "durability), reached " + http.phrase(), databases, Map.of(), http);
    }

    @Override
    protected List<Class<?>> extraSources() {
        return List.of(MemoryLedgerConfiguration.class);
    }

    @Override
    protected void prepare(Catalogue catalogue) {
        MemoryLedger ledger = service.getBean(MemoryLedger.class);
        for (String sku : catalogue.skus()) {
            ledger.stock(new SkuId(sku), catalogue.unitsPerSku());
        }
    }

    @Override
    public long[] remaining(Catalogue catalogue) {
        MemoryLedger ledger = service.getBean(MemoryLedger.class);
        long[] remaining = new long[catalogue.size()];
        for (int i = 0; i < remaining.length; i++) {
            remaining[i] = ledger.available(new SkuId(catalogue.skus().get(i)));
        }
        return remaining;
    }

    @Override
    protected String acknowledgementNote() {
        return acknowledgedCount() + " acknowledged, kept in memory only (the ceiling keeps nothing)";
    }
}
