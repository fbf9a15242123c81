package io.stockguard.bench.stockguard;

import io.stockguard.StockGuardApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;

/**
 * The HTTP ceiling as a process, for {@code bench/wrk/ladder.sh ceiling}: the service started with
 * the same arguments as {@code ./stockguard run} (the database tier), its ledger a
 * {@link MemoryLedger}. Run from the bench jar:
 * {@code java -cp stockguard-bench.jar -Dloader.main=io.stockguard.bench.stockguard.HttpCeiling
 * org.springframework.boot.loader.launch.PropertiesLauncher --server.port=…}.
 */
public final class HttpCeiling {

    private HttpCeiling() {
    }

    public static void main(String[] args) {
        new SpringApplicationBuilder(StockGuardApplication.class, MemoryLedgerConfiguration.class).run(args);
    }
}
