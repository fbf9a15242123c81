package io.stockguard.alerting;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.alerting.webhook.Attempt;
import io.stockguard.alerting.webhook.WebhookChannel;
import io.stockguard.platform.Backoff;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One channel's bounded queue and the single thread that empties it, so a channel that hangs
 * delays only its own alerts. Each delivery tries {@code 1 + retries} times with a doubling,
 * jittered backoff, and stops at its deadline whatever is left.
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

    /**
     * Sends the alert, retried by Resilience4j's {@code Retry} on a failed attempt with the jittered
     * backoff, until it is sent, the attempts are spent or the deadline has passed. A wait never
     * runs past the deadline; an attempt that would start after it is not made.
     */
    private void deliver(String alertId, Alert alert) {
        long deadline = System.nanoTime() + policy.deadline().toNanos();
        IntervalFunction waits = new Backoff(policy.backoff(), policy.deadline()).intervals();
        int[] attempts = {0};
        Retry retry = Retry.of("alert-" + channel.name(), RetryConfig.<Attempt>custom()
                .maxAttempts(policy.retries() + 1)
                .retryOnResult(attempt -> attempt instanceof Attempt.Failed && deadline - System.nanoTime() > 0)
                .intervalBiFunction((attempt, ignored) -> Math.min(waits.apply(attempt),
                        TimeUnit.NANOSECONDS.toMillis(Math.max(0, deadline - System.nanoTime()))))
                .failAfterMaxAttempts(false)
                .build());
        Attempt last;
        try {
            last = retry.executeSupplier(() -> {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return new Attempt.Failed(attempts[0] == 0 ? "the delivery deadline passed before the first attempt"
                            : "the delivery deadline passed");
                }
                attempts[0]++;
                return channel.send(alert, Duration.ofNanos(left));
            });
        } catch (CancellationException stopping) {
            // The service stops: its executor interrupted the wait between attempts.
            last = new Attempt.Failed("the service stopped before the alert was delivered");
        }
        if (last instanceof Attempt.Failed failed) {
            log.warn("alert {} ({} {}) not delivered to channel {} after {} attempt(s): {}", alertId, alert.level(),
                    alert.kind(), channel.name(), attempts[0], failed.error());
            outcome(alertId, DeliveryStatus.FAILED, attempts[0], failed.error());
        } else {
            outcome(alertId, DeliveryStatus.SENT, attempts[0], null);
        }
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
