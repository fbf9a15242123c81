package io.stockguard.alerting;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes alert rows on one thread of its own, in the order they were handed over. Why not on the
 * raiser's thread: {@link Alerts#raise} is called by the reconciliation probe, which must not wait
 * for a connection from a pool the reservations have drained, nor fail because the database it is
 * reporting on is down. One thread keeps the insert of an alert ahead of its delivery updates. The
 * queue is bounded; when it is full a row is not written (counted), while delivery goes on.
 */
final class AlertRecorder implements AutoCloseable {

    static final int QUEUE_CAPACITY = 10_000;
    private static final Logger log = LoggerFactory.getLogger(AlertRecorder.class);

    private final AlertStore store;
    private final ThreadPoolExecutor writer;
    private final Counter dropped;
    private final Counter failed;

    AlertRecorder(AlertStore store, MeterRegistry meters) {
        this.store = store;
        this.writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE_CAPACITY),
                runnable -> {
                    Thread thread = new Thread(runnable, "stockguard-alert-recorder");
                    thread.setDaemon(true);
                    return thread;
                });
        this.dropped = meters.counter("stockguard.alerts.record.dropped");
        this.failed = meters.counter("stockguard.alerts.record.failures");
    }

    void raised(String alertId, Alert alert, Map<String, DeliveryStatus> deliveries, Instant at) {
        submit(() -> store.insert(alertId, alert, deliveries, at));
    }

    void suppressed(String alertId, Instant at) {
        submit(() -> store.countSuppressed(alertId, at));
    }

    void delivery(String alertId, String channel, DeliveryStatus status, int attempts, String error, Instant at) {
        submit(() -> store.updateDelivery(alertId, channel, status, attempts, error, at));
    }

    private void submit(Runnable write) {
        try {
            writer.execute(() -> {
                try {
                    write.run();
                } catch (RuntimeException e) {
                    failed.increment();
                    log.warn("an alert row was not written: {}", e.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            dropped.increment();
        }
    }

    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(5, TimeUnit.SECONDS)) {
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            writer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
