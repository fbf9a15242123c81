package io.stockguard.guard;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.stock.SkuMode;
import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * How many SKUs are frozen and throttled now ({@code stockguard.guard.skus{mode}}), for dashboards
 * and alert rules: a count of mode changes says a SKU was frozen, not that it still is hours later.
 * Counted in the database at most once per {@link #REFRESH}, however often it is scraped (several
 * Prometheus servers scraping every instance would otherwise count the SKU table many times a
 * second); when the database cannot answer, the last count stands.
 */
@Component
class SkuModeGauges {

    static final Duration REFRESH = Duration.ofSeconds(15);
    private static final Logger log = LoggerFactory.getLogger(SkuModeGauges.class);

    private final SkuModeStore store;
    private final LongSupplier nanoTime;
    private Map<SkuMode, Long> counts = Map.of();
    private long countedAt;
    private boolean counted;

    @Autowired
    SkuModeGauges(SkuModeStore store, MeterRegistry meters) {
        this(store, meters, System::nanoTime);
    }

    /** @param nanoTime the clock the refresh interval is measured on (a test's own) */
    SkuModeGauges(SkuModeStore store, MeterRegistry meters, LongSupplier nanoTime) {
        this.store = store;
        this.nanoTime = nanoTime;
        for (SkuMode mode : SkuMode.values()) {
            if (mode != SkuMode.NORMAL) {
                Gauge.builder("stockguard.guard.skus", () -> skus(mode)).tag("mode", mode.name())
                        .description("SKUs in this mode now").register(meters);
            }
        }
    }

    synchronized double skus(SkuMode mode) {
        long now = nanoTime.getAsLong();
        if (!counted || now - countedAt >= REFRESH.toNanos()) {
            try {
                counts = Map.copyOf(store.skusOutOfNormal());
                counted = true;
                countedAt = now;
            } catch (RuntimeException e) {
                log.debug("SKU modes not counted; the last count stands: {}", e.toString());
            }
        }
        return counted ? counts.getOrDefault(mode, 0L) : Double.NaN;
    }
}
