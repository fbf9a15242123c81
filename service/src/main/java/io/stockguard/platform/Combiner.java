package io.stockguard.platform;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Flat combining: callers queue their request, and whichever caller finds no one leading becomes
 * the leader and serves the queued requests in batches until its own is done; then it hands over.
 * No thread of its own, no timer: a batch holds whatever arrived while the previous one ran, so it
 * is one request when the SKU is quiet and many when it is hot.
 *
 * @param <R> the result of a request
 */
public final class Combiner<T, R> {

    /**
     * How long a waiting caller sleeps before looking again. Callers are woken explicitly (their
     * request completed, or leadership handed to them), so this is only a safety net; short
     * naps would have dozens of waiting threads burn the CPU the batch needs.
     */
    private static final long RECHECK_NANOS = 10_000_000;

    /** One queued request and, once served, its result. */
    public static final class Pending<T, R> {
        private static final int QUEUED = 0;
        private static final int TAKEN = 1;
        private static final int ABANDONED = 2;

        public final T request;
        private final Thread owner = Thread.currentThread();
        private final AtomicInteger state = new AtomicInteger(QUEUED);
        private volatile R result;

        Pending(T request) {
            this.request = request;
        }

        public void complete(R value) {
            result = value;
            LockSupport.unpark(owner);
        }

        boolean isDone() {
            return result != null;
        }

        R result() {
            return result;
        }

        /** Claims the request for a batch; false when its caller gave up waiting first. */
        boolean take() {
            return state.compareAndSet(QUEUED, TAKEN);
        }

        /** Gives up on a request no batch has taken; false when a batch already has it. */
        boolean abandon() {
            return state.compareAndSet(QUEUED, ABANDONED);
        }
    }

    private final ConcurrentLinkedQueue<Pending<T, R>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean leading = new AtomicBoolean();
    private final int batchSizeMax;
    private final Consumer<List<Pending<T, R>>> serveBatch;

    /** @param serveBatch serves a batch and completes every pending of it, also when it fails */
    public Combiner(int batchSizeMax, Consumer<List<Pending<T, R>>> serveBatch) {
        this.batchSizeMax = batchSizeMax;
        this.serveBatch = serveBatch;
    }

    /**
     * Queues a request and returns its result, or null when no batch took it within
     * {@code waitMax} (it was then certainly not served). A request a batch has taken is always
     * waited for: its batch is bounded by the database's statement and connection timeouts.
     */
    public R submit(T request, Duration waitMax) {
        Pending<T, R> pending = new Pending<>(request);
        queue.add(pending);
        long deadline = System.nanoTime() + waitMax.toNanos();
        while (!pending.isDone()) {
            if (leading.compareAndSet(false, true)) {
                try {
                    lead(pending);
                } finally {
                    leading.set(false);
                }
                handOver();
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 && pending.abandon()) {
                return null;
            }
            LockSupport.parkNanos(this, left > 0 ? Math.min(left, RECHECK_NANOS) : RECHECK_NANOS);
        }
        return pending.result();
    }

    private void lead(Pending<T, R> own) {
        while (!own.isDone()) {
            List<Pending<T, R>> batch = drain();
            if (batch.isEmpty()) {
                return;
            }
            serveBatch.accept(batch);
        }
    }

    private List<Pending<T, R>> drain() {
        List<Pending<T, R>> batch = new ArrayList<>();
        Pending<T, R> next;
        while (batch.size() < batchSizeMax && (next = queue.poll()) != null) {
            if (next.take()) {
                batch.add(next);
            }
        }
        return batch;
    }

    /** Wakes the caller at the head of the queue so that it leads the next batch without delay. */
    private void handOver() {
        Pending<T, R> head = queue.peek();
        if (head != null) {
            LockSupport.unpark(head.owner);
        }
    }
}
