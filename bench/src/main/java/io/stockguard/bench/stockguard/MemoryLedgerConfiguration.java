package io.stockguard.bench.stockguard;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * Puts the {@link MemoryLedger} under the service's reservation API in place of the tier's ledger.
 * Deliberately not a {@code @Configuration}: the service scans {@code io.stockguard} and everything
 * under it, so an annotated class here would replace the ledger of every service the bench starts.
 * It is given as a source only to the services that measure the ceiling.
 */
public class MemoryLedgerConfiguration {

    @Bean
    @Primary
    MemoryLedger memoryLedger() {
        return new MemoryLedger();
    }
}
