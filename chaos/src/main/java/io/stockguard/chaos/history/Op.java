package io.stockguard.chaos.history;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * One line of a history, in the style of Jepsen: every operation a client attempts is recorded
 * when it is invoked and again when it completes, with what came back. A process has at most one
 * operation outstanding, so an INVOKE is completed by the next OK / FAIL / INFO of its process.
 *
 * <p>Completions are typed by what the answer proves:
 * <ul>
 * <li>{@link Type#OK}: a 2xx; the operation took effect (or had taken effect, when replayed).</li>
 * <li>{@link Type#FAIL}: a definite refusal, a 4xx; or {@code 503 UNAVAILABLE}, which the API
 *     promises means "certainly not applied" (the checker verifies the promise).</li>
 * <li>{@link Type#INFO}: no answer, a timeout, {@code 503 OUTCOME_UNKNOWN} or any other 5xx; the
 *     operation may or may not have taken effect, at any time after its invocation.</li>
 * </ul>
 *
 * <p>Processes: {@code c<n>} for client threads, {@code nemesis} for faults (INVOKE when a fault
 * is about to be injected, OK once it is; {@code heal-…} the same for its healing), {@code setup}
 * for the catalogue created before the load, {@code final} for the reads after everything healed.
 *
 * @param index position in the history, from 0
 * @param process who did it
 * @param type invoke or how it completed
 * @param f the operation: {@code reserve}, {@code confirm}, {@code cancel}, {@code restock},
 *     {@code adjust}, {@code read-sku}, {@code read-order}, {@code create-sku}; final reads add
 *     {@code probe}, {@code buckets} and {@code metrics}; nemesis operations are named after the fault
 * @param atMillis milliseconds since the run started (monotonic)
 * @param instance the service instance that answered (or was asked), e.g. {@code a} or {@code b}
 * @param orderId order operations: the order
 * @param lines reserve: the lines asked for (invoke) or granted (ok); read-order: the lines read
 * @param commit reserve: reserve and confirm in one step
 * @param ttlSeconds reserve: the hold asked for
 * @param skuId SKU operations: the SKU
 * @param qty create-sku: the total; restock: the quantity; adjust: the signed delta
 * @param requestId restock and adjust: the idempotency key
 * @param status the HTTP status, 0 when there was no answer
 * @param code the problem's {@code code}, when the answer was a problem
 * @param replayed reserve / confirm / cancel answered 2xx: whether the service said it was a replay
 * @param state order operations answered 2xx, and read-order: the order's state in the answer
 * @param stock read-sku answered 2xx: the SKU's counters
 * @param numbers final probe, buckets and metrics: named figures (see {@link Final}); create-sku: the
 *     per-customer limit it set ({@link Customers#LIMIT})
 * @param detail an error message, a fault's description, anything a person reading it needs
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Op(long index, String process, Type type, String f, long atMillis, String instance, String orderId,
        List<Line> lines, Boolean commit, Long ttlSeconds, String skuId, Long qty, String requestId, Integer status,
        String code, Boolean replayed, String state, Stock stock, Map<String, Long> numbers, String detail) {

    public enum Type { INVOKE, OK, FAIL, INFO }

    /** One order line. */
    public record Line(String skuId, int qty) {
    }

    /** A SKU's counters as an answer gave them, with its buckets (available, reserved, sold each). */
    public record Stock(long total, long available, long reserved, long sold, String mode, List<long[]> buckets) {
    }

    /** The figures the final phase records under {@link Op#numbers()}. */
    public static final class Final {
        /** probe: the exact drift in units; 0 in a correct system. */
        public static final String DRIFT_UNITS = "driftUnits";
        /** probe: 1 when the probe reported a regression (the hot store lost writes). */
        public static final String REGRESSION = "regression";
        /** probe: 1 when the probe could not measure (the SKU is not loaded, the store is down). */
        public static final String UNMEASURED = "unmeasured";
        /**
         * buckets: for bucket i, {@code hot.i.available} / {@code .reserved} / {@code .sold} as the hot
         * store holds it and {@code db.i.…} as the database does (absent keys: that store has no copy).
         */
        public static final String HOT_PREFIX = "hot.";
        public static final String DB_PREFIX = "db.";
        /** metrics: reservations the database path served instead of the hot store, per instance. */
        public static final String DATABASE_FALLBACKS = "databaseFallbacks";
        /** metrics: SKUs the database path took over from the hot store, per instance. */
        public static final String TAKEOVERS = "takeovers";

        private Final() {
        }
    }

    public boolean isInvoke() {
        return type == Type.INVOKE;
    }

    public boolean isClient() {
        return process.startsWith("c");
    }

    /** An answer that settles the question: a 2xx, or a 4xx refusal. 503s and silence are not. */
    public boolean definite() {
        return (type == Type.OK || type == Type.FAIL) && status != null && status > 0 && status < 500;
    }

    /** The completion of this invocation. */
    public Op complete(long index, Type type, long atMillis) {
        return new Op(index, process, type, f, atMillis, instance, orderId, lines, commit, ttlSeconds, skuId, qty,
                requestId, null, null, null, null, null, null, null);
    }

    public Op withAnswer(Integer status, String code, Boolean replayed, String state, List<Line> lines, Stock stock,
            Map<String, Long> numbers, String detail) {
        return new Op(index, process, type, f, atMillis, instance, orderId, lines == null ? this.lines : lines,
                commit, ttlSeconds, skuId, qty, requestId, status, code, replayed, state, stock, numbers, detail);
    }

    public Op withInstance(String instance) {
        return new Op(index, process, type, f, atMillis, instance, orderId, lines, commit, ttlSeconds, skuId, qty,
                requestId, status, code, replayed, state, stock, numbers, detail);
    }
}
