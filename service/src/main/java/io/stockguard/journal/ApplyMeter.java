package io.stockguard.journal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the database writers of both Redis tiers' journals report of each batch they applied: the
 * lag from each change in the hot store to its application ({@code stockguard.journal.apply.lag})
 * and each event's outcome ({@code stockguard.journal.applied}).
 */
public final class ApplyMeter {

    private final MeterRegistry meters;
    private final Clock clock;
    private final Timer applyLag;

    public ApplyMeter(MeterRegistry meters, Clock clock) {
        this.meters = meters;
        this.clock = clock;
        this.applyLag = Timer.builder("stockguard.journal.apply.lag")
                .description("time from a change in the hot store to its application in the database")
                .publishPercentileHistogram().register(meters);
    }

    /** Records a batch just applied: its events and, in the same order, what became of each. */
    public void applied(List<StockEvent> events, List<EventOutcome> outcomes) {
        long now = clock.millis();
        for (int i = 0; i < events.size(); i++) {
            applyLag.record(Math.max(0, now - events.get(i).occurredAt().toEpochMilli()), TimeUnit.MILLISECONDS);
            String outcome = outcomes.get(i) instanceof EventOutcome.Rejected rejected ? rejected.reason().name()
                    : outcomes.get(i).toString();
            meters.counter("stockguard.journal.applied", "outcome", outcome).increment();
        }
    }
}
