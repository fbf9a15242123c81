package io.stockguard.alerting;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.alerting.webhook.Attempt;
import io.stockguard.alerting.webhook.WebhookChannel;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One channel's bounded queue and the single thread that empties it, so a channel that hangs
 * delays only its own alerts. Each delivery tries {@code 1 + retries} times with a doubling
 * backoff, and stops at its deadline whatever is left.
 */
final class ChannelWorker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ChannelWorker.class);

    /** Attempts and their bounds, the same for every channel. */
    record Policy(int retries, Duration backoff, Duration deadline) {
    }

    private final WebhookChannel channel;
    private final Policy policy;
    private final AlertRecorder recorder;
    private final MeterRegistry meters;
    private final Clock clock;
    private final ThreadPoolExecutor sender;

    ChannelWorker(WebhookChannel channel, int queueCapacity, Policy policy, AlertRecorder recorder,
            MeterRegistry meters, Clock clock) {
        this.channel = channel;
        this.policy = policy;
        this.recorder = recorder;
        this.meters = meters;
        this.clock = clock;
        ArrayBlockingQueue<Runnable> queue = new ArrayBlockingQueue<>(queueCapacity);
        this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, queue, runnable -> {
            Thread thread = new Thread(runnable, "stockguard-alert-" + channel.name());
            thread.setDaemon(true);
            return thread;
        });
        Gauge.builder("stockguard.alerts.queued", queue, ArrayBlockingQueue::size).tag("channel", channel.name())
                .description("alerts waiting for this channel").register(meters);
    }

    WebhookChannel channel() {
        return channel;
    }

    String name() {
        return channel.name();
    }

    /** Queues the alert; false when the queue is full (the caller records the drop). */
    boolean offer(String alertId, Alert alert) {
        try {
            sender.execute(() -> deliver(alertId, alert));
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    private void deliver(String alertId, Alert alert) {
        long deadline = System.nanoTime() + policy.deadline().toNanos();
        String error = "the delivery deadline passed before the first attempt";
        int attempts = 0;
        while (attempts <= policy.retries()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            attempts++;
            Attempt attempt = channel.send(alert, Duration.ofNanos(left));
            if (attempt instanceof Attempt.Failed failed) {
                error = failed.error();
            } else {
                outcome(alertId, DeliveryStatus.SENT, attempts, null);
                return;
            }
            if (attempts <= policy.retries() && !pause(attempts, deadline)) {
                break;
            }
        }
        log.warn("alert {} ({} {}) not delivered to channel {} after {} attempt(s): {}", alertId, alert.level(),
                alert.kind(), channel.name(), attempts, error);
        outcome(alertId, DeliveryStatus.FAILED, attempts, error);
    }

    /** Waits before the next attempt; false when the wait would pass the deadline or the service stops. */
    private boolean pause(int attempts, long deadline) {
        long backoff = policy.backoff().toNanos() << Math.min(attempts - 1, 10);
        if (System.nanoTime() + backoff >= deadline || Thread.currentThread().isInterrupted()) {
            return false;
        }
        LockSupport.parkNanos(backoff);
        return !Thread.currentThread().isInterrupted();
    }

    private void outcome(String alertId, DeliveryStatus status, int attempts, String error) {
        meters.counter("stockguard.alerts.delivered", "channel", channel.name(), "outcome",
                status.name().toLowerCase(java.util.Locale.ROOT)).increment();
        recorder.delivery(alertId, channel.name(), status, attempts, error, clock.instant());
    }

    @Override
    public void close() {
        sender.shutdownNow();
    }
}
