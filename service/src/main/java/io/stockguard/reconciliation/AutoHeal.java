package io.stockguard.reconciliation;

import io.stockguard.platform.TraceId;
import io.stockguard.stock.SkuId;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * Heals a SKU the probe froze, when {@code auto-heal} is configured. A heal waits for the journal
 * and the takeover delay (seconds), which the probe's schedule must not wait for: heals run on a
 * thread of their own, one SKU at a time, and a SKU already queued is not queued twice.
 */
@Component
class AutoHeal {

    private static final Logger log = LoggerFactory.getLogger(AutoHeal.class);

    private final Healing heals;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    /** SKUs being auto-healed now, so a second reading does not queue a second heal. */
    private final Set<SkuId> healing = ConcurrentHashMap.newKeySet();
    private final ExecutorService healer = Executors.newSingleThreadExecutor(
            r -> {
                Thread t = new Thread(r, "stockguard-auto-heal");
                t.setDaemon(true);
                return t;
            });

    AutoHeal(Healing heals, ApplicationEventPublisher events, Clock clock) {
        this.heals = heals;
        this.events = events;
        this.clock = clock;
    }

    /** Queues a heal of the reading's SKU unless one is queued or running. */
    void healInBackground(Reading reading) {
        if (!healing.add(reading.skuId())) {
            return;
        }
        healer.execute(() -> {
            try {
                Healing.Healed healed = heals.heal(reading.skuId(), "auto-heal after " + reading.kind() + " "
                        + reading.units() + " units", true, DriftProbe.PROBE, TraceId.random());
                log.warn("SKU {} auto-healed: drift {} before, {} after ({}); mode {}", reading.skuId(),
                        healed.before().units(), healed.after().units(), healed.after().kind(), healed.mode());
            } catch (RuntimeException e) {
                log.error("auto-heal of SKU {} failed; it stays frozen for a person: {}", reading.skuId(), e.toString());
                events.publishEvent(new DriftDetected(new Reading(reading.skuId(), clock.instant(), reading.kind(),
                        DriftLevel.FREEZE, reading.units(), reading.percent(), reading.total(), reading.inFlight(),
                        "auto-heal failed (" + e.getMessage() + "); the SKU stays frozen: " + reading.detail()),
                        "FROZEN"));
            } finally {
                healing.remove(reading.skuId());
            }
        });
    }

    @PreDestroy
    void stop() {
        healer.shutdownNow();
    }
}
