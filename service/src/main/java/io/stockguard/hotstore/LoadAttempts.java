package io.stockguard.hotstore;

import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Which request of this instance may try to load a SKU the database sells back into the hot store,
 * and when. A load holds the SKU's database row while Redis answers, and every database sale of
 * the SKU waits for that row. When Redis cannot answer for the SKU (a cluster node that serves its
 * slot paused, a client whose view of the cluster is stale), each try holds the row for a whole
 * command timeout. Unchecked, every request tried in turn, one after another behind the row, and
 * the database sales queued behind them until their own statement timeout: nothing was sold.
 *
 * <p>So one request at a time tries (it claims the SKU here; the others wait for its load, not for
 * the row, and then go where it left the SKU), and after a failed try the next waits a pause that doubles with each failure
 * up to {@link #PAUSE_MAX}, so that the database sells the SKU most of the time while Redis keeps
 * failing for it. A load that works forgets the SKU. The pause is a retry policy, not a hand-off:
 * the database owns the SKU the whole time, whoever tries.
 */
final class LoadAttempts {

    /** The pause after a SKU's first failed load. */
    static final Duration PAUSE_FIRST = Duration.ofMillis(250);
    /**
     * The longest pause: a SKU whose Redis keeps failing goes back to the hot store at most this
     * long after Redis answers again, and its database sales wait for at most one command timeout
     * in every such pause.
     */
    static final Duration PAUSE_MAX = Duration.ofSeconds(4);
    /**
     * SKUs remembered at most (loading now, or failed recently). Past it a failed SKU is not
     * remembered, and is tried again at its next request, as it would be without this class.
     */
    static final int SKUS_MAX = 100_000;

    /** What a request may do about a SKU the database sells. */
    sealed interface Turn {
        /** This request tries the load, and reports how it went. */
        record Mine(Claim claim) implements Turn {
        }

        /**
         * Another request of this instance is loading it now; {@code done} completes when that
         * load is over, however it went. A request waits for it rather than for the row, so that
         * it sees the SKU where the load left it (a request for a hot SKU and one being loaded
         * would otherwise find them owned by different stores, and be answered "retry").
         */
        record Taken(CompletableFuture<Void> done) implements Turn {
        }

        /** Its last load failed; the next may be tried in {@code left}. */
        record Paused(Duration left) implements Turn {
        }
    }

    /**
     * @param done completed when the load under way ends; null when none is
     * @param failures failed loads in a row; {@code retryAt} nano time of the next try
     */
    private record State(CompletableFuture<Void> done, int failures, long retryAt) {
        boolean loading() {
            return done != null;
        }
    }

    private final ConcurrentHashMap<SkuId, State> states = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;

    LoadAttempts() {
        this(System::nanoTime);
    }

    LoadAttempts(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** Claims the SKU's load for the caller if nobody here is loading it and its pause has passed. */
    Turn claim(SkuId sku) {
        long now = nanoTime.getAsLong();
        Turn[] turn = new Turn[1];
        states.compute(sku, (key, state) -> {
            if (state == null || (!state.loading() && now - state.retryAt() >= 0)) {
                int failures = state == null ? 0 : state.failures();
                CompletableFuture<Void> done = new CompletableFuture<>();
                turn[0] = new Turn.Mine(new Claim(sku, failures, done));
                return new State(done, failures, now);
            }
            turn[0] = state.loading() ? new Turn.Taken(state.done())
                    : new Turn.Paused(Duration.ofNanos(state.retryAt() - now));
            return state;
        });
        return turn[0];
    }

    /** SKUs remembered now (for tests and the bound). */
    int remembered() {
        return states.size();
    }

    static Duration pauseAfter(int failures) {
        long millis = PAUSE_FIRST.toMillis() << Math.min(failures - 1, 16);
        return Duration.ofMillis(Math.min(millis, PAUSE_MAX.toMillis()));
    }

    /** A request's claim on a SKU's load; exactly one of its methods is called, once. */
    final class Claim {
        private final SkuId sku;
        private final int failuresBefore;
        private final CompletableFuture<Void> done;

        private Claim(SkuId sku, int failuresBefore, CompletableFuture<Void> done) {
            this.sku = sku;
            this.failuresBefore = failuresBefore;
            this.done = done;
        }

        void loaded() {
            states.remove(sku);
            done.complete(null);
        }

        /** @return how long the next load of the SKU waits */
        Duration failed() {
            int failures = failuresBefore + 1;
            Duration pause = pauseAfter(failures);
            try {
                if (states.size() > SKUS_MAX) {
                    // Too many SKUs failing at once: this one is not remembered, and its next request tries again.
                    states.remove(sku);
                    return Duration.ZERO;
                }
                states.put(sku, new State(null, failures, nanoTime.getAsLong() + pause.toNanos()));
                return pause;
            } finally {
                done.complete(null);
            }
        }
    }
}
