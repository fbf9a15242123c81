package io.stockguard.reconciliation;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The probe's metrics: readings by kind and level, probe time, and the drift of each SKU probed at
 * the hot cadence. The per-SKU gauge is bounded: beyond {@link #GAUGED_SKUS_MAX} SKUs no new gauges
 * are made (a metric per SKU of a 100,000-SKU catalogue would swamp the metrics store).
 */
final class DriftMetrics {

    static final int GAUGED_SKUS_MAX = 2_000;

    private final MeterRegistry meters;
    private final Timer probeTime;
    private final Map<SkuId, AtomicLong> driftUnits = new ConcurrentHashMap<>();

    DriftMetrics(MeterRegistry meters) {
        this.meters = meters;
        this.probeTime = Timer.builder("stockguard.reconciliation.probe").description("time to probe one SKU")
                .publishPercentileHistogram().register(meters);
    }

    void measured(Reading reading, long nanos, boolean gauged) {
        probeTime.record(Duration.ofNanos(nanos));
        Counter.builder("stockguard.reconciliation.readings").tag("kind", reading.kind().name())
                .tag("level", reading.level().name()).register(meters).increment();
        AtomicLong gauge = driftUnits.get(reading.skuId());
        if (gauge == null && gauged && driftUnits.size() < GAUGED_SKUS_MAX) {
            gauge = driftUnits.computeIfAbsent(reading.skuId(), sku -> meters.gauge("stockguard.reconciliation.drift.units",
                    io.micrometer.core.instrument.Tags.of("sku", sku.value()), new AtomicLong()));
        }
        if (gauge != null) {
            gauge.set(reading.units());
        }
    }
}
