package io.stockguard.alerting;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.audit.AuditLog;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.ProblemCode;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Routes each alert to the channels that take its level, after the dedupe window and each
 * channel's rate limit; everything that may wait (HTTP, the database) happens on other threads.
 */
final class AlertDispatcher implements Alerts, ChannelCheck, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AlertDispatcher.class);

    private final boolean enabled;
    private final List<ChannelWorker> workers;
    private final DedupeWindow dedupe;
    private final ChannelRateLimit rateLimit;
    private final AlertRecorder recorder;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final MeterRegistry meters;
    private final Clock clock;

    AlertDispatcher(boolean enabled, List<ChannelWorker> workers, DedupeWindow dedupe, ChannelRateLimit rateLimit,
            AlertRecorder recorder, AuditLog audit, TransactionTemplate transactions, MeterRegistry meters,
            Clock clock) {
        this.enabled = enabled;
        this.workers = List.copyOf(workers);
        this.dedupe = dedupe;
        this.rateLimit = rateLimit;
        this.recorder = recorder;
        this.audit = audit;
        this.transactions = transactions;
        this.meters = meters;
        this.clock = clock;
    }

    @Override
    public void raise(Alert alert) {
        Objects.requireNonNull(alert, "alert");
        meters.counter("stockguard.alerts.raised", "level", alert.level().name()).increment();
        if (!enabled) {
            return;
        }
        String alertId = UUID.randomUUID().toString();
        Instant now = clock.instant();
        Optional<String> first = dedupe.firstOf(alert.dedupeKey(), alertId, now);
        if (first.isPresent()) {
            meters.counter("stockguard.alerts.deduplicated", "level", alert.level().name()).increment();
            recorder.suppressed(first.get(), now);
            return;
        }
        route(alertId, alert, now, workers.stream().filter(w -> w.channel().takes(alert.level())).toList(), true);
    }

    /**
     * Records the alert with each target's first status, then queues it. Recording first keeps the
     * insert ahead of the delivery updates on the recorder's single thread.
     */
    private void route(String alertId, Alert alert, Instant now, List<ChannelWorker> targets, boolean limited) {
        Map<String, DeliveryStatus> statuses = new LinkedHashMap<>();
        List<ChannelWorker> admitted = new java.util.ArrayList<>();
        for (ChannelWorker target : targets) {
            if (limited && !rateLimit.admit(target.name(), alert.skuId(), alert.level(), now)) {
                statuses.put(target.name(), DeliveryStatus.SUPPRESSED);
                count(target, DeliveryStatus.SUPPRESSED);
            } else {
                statuses.put(target.name(), DeliveryStatus.PENDING);
                admitted.add(target);
            }
        }
        recorder.raised(alertId, alert, statuses, now);
        for (ChannelWorker target : admitted) {
            if (!target.offer(alertId, alert)) {
                count(target, DeliveryStatus.DROPPED);
                recorder.delivery(alertId, target.name(), DeliveryStatus.DROPPED, 0,
                        "the channel's queue was full", now);
                log.warn("alert {} ({} {}) dropped for channel {}: its queue is full", alertId, alert.level(),
                        alert.kind(), target.name());
            }
        }
    }

    private void count(ChannelWorker target, DeliveryStatus status) {
        meters.counter("stockguard.alerts.delivered", "channel", target.name(), "outcome",
                status.name().toLowerCase(Locale.ROOT)).increment();
    }

    @Override
    public TestAlert send(AlertLevel level, String channel, String reason, Caller caller) {
        if (level != AlertLevel.INFO && level != AlertLevel.WARN) {
            throw new InvalidRequestException("level", "a test alert is INFO or WARN");
        }
        List<ChannelWorker> targets = targets(channel);
        String alertId = UUID.randomUUID().toString();
        Instant now = clock.instant();
        Alert alert = new Alert(level, "test", null, "Test alert from " + caller.actor(),
                "Sent on request to check the channel: " + reason, now, "test|" + alertId);
        List<String> names = targets.stream().map(ChannelWorker::name).toList();
        transactions.executeWithoutResult(status -> audit.record(caller.actor(), "ALERT_TEST",
                "alerting:" + (channel == null ? "all" : channel), reason, null,
                Map.of("alertId", alertId, "level", level.name(), "channels", names), caller.traceId()));
        meters.counter("stockguard.alerts.raised", "level", level.name()).increment();
        route(alertId, alert, now, targets, false);
        return new TestAlert(alertId, level, names);
    }

    private List<ChannelWorker> targets(String channel) {
        if (!enabled || workers.isEmpty()) {
            throw new ApiProblemException(ProblemCode.UNKNOWN_CHANNEL, enabled
                    ? "no alert channel is configured (stockguard.alerting.channels)"
                    : "alerting is switched off (stockguard.alerting.enabled=false)");
        }
        if (channel == null) {
            return workers;
        }
        return workers.stream().filter(w -> w.name().equalsIgnoreCase(channel)).findFirst().map(List::of)
                .orElseThrow(() -> new ApiProblemException(ProblemCode.UNKNOWN_CHANNEL,
                        "no alert channel is named '" + channel + "'",
                        Map.of("channels", workers.stream().map(ChannelWorker::name).toList())));
    }

    @Override
    public List<Map<String, Object>> channels() {
        return workers.stream().map(w -> w.channel().describe()).toList();
    }

    @Override
    public void close() {
        workers.forEach(ChannelWorker::close);
        recorder.close();
    }
}
