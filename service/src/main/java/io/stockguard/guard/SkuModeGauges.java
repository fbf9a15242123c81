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
 * second); when the database cannot answer, the last count stands. The count runs on a thread of
 * its own and a scrape waits for it at most {@link #COUNT_WAIT}: a stalled database must not stall
 * the scrape, which also carries the metrics that tell of the stall (the journal's backlog).
 */
@Component
class SkuModeGauges {

    static final Duration REFRESH = Duration.ofSeconds(15);
    /** How long a scrape waits for a count under way before it shows the last one. */
    static final Duration COUNT_WAIT = Duration.ofMillis(200);
    private static final Logger log = LoggerFactory.getLogger(SkuModeGauges.class);

    private final SkuModeStore store;
    private final LongSupplier nanoTime;
    private Map<SkuMode, Long> counts = Map.of();
    private long countedAt;
    private boolean counted;
    private java.util.concurrent.CompletableFuture<Void> counting;
    private final java.util.concurrent.ExecutorService counter = java.util.concurrent.Executors
            .newSingleThreadExecutor(Thread.ofPlatform().name("stockguard-mode-count").daemon().factory());

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

    double skus(SkuMode mode) {
        java.util.concurrent.CompletableFuture<Void> count;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            if ((!counted || now - countedAt >= REFRESH.toNanos()) && (counting == null || counting.isDone())) {
                counting = java.util.concurrent.CompletableFuture.runAsync(() -> count(now), counter);
            }
            count = counting;
        }
        if (count != null && !count.isDone()) {
            try {
                count.get(COUNT_WAIT.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                // The database is slow or away: the last count stands.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            return counted ? counts.getOrDefault(mode, 0L) : Double.NaN;
        }
    }

    private void count(long startedAt) {
        try {
            Map<SkuMode, Long> found = Map.copyOf(store.skusOutOfNormal());
            synchronized (this) {
                counts = found;
                counted = true;
                countedAt = startedAt;
            }
        } catch (RuntimeException e) {
            log.debug("SKU modes not counted; the last count stands: {}", e.toString());
        }
    }
}
