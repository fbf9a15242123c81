package io.stockguard.chaos.check;

import io.stockguard.chaos.history.History;
import io.stockguard.chaos.history.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes histories compactly: each call records an invocation at the fixture's clock (which moves
 * 10 ms per operation, or jumps with {@link #at}); its {@link Call} records the completion. Lines
 * are written {@code "SKU-1:2"}. {@link #build()} orders everything by time and numbers it.
 */
public final class HistoryFixtures {

    public static final long DEFAULT_TTL = 900;

    private final List<Op> ops = new ArrayList<>();
    private long now;

    public static HistoryFixtures history() {
        return new HistoryFixtures();
    }

    /** Moves the clock to {@code millis} since the run started. */
    public HistoryFixtures at(long millis) {
        now = millis;
        return this;
    }

    public History build() {
        List<Op> sorted = ops.stream().sorted(Comparator.comparingLong(Op::atMillis)).toList();
        List<Op> numbered = new ArrayList<>();
        for (Op op : sorted) {
            numbered.add(new Op(numbered.size(), op.process(), op.type(), op.f(), op.atMillis(), op.instance(),
                    op.orderId(), op.lines(), op.commit(), op.ttlSeconds(), op.skuId(), op.qty(), op.requestId(),
                    op.status(), op.code(), op.replayed(), op.state(), op.stock(), op.numbers(), op.detail()));
        }
        return History.of(numbered);
    }

    // ---- setup and the nemesis

    public HistoryFixtures sku(String skuId, long total) {
        return call("setup", "create-sku", null, null, null, null, skuId, total, null).acknowledged(201);
    }

    /** A SKU set up with a per-customer limit. */
    public HistoryFixtures skuLimited(String skuId, long total, long limitPerCustomer) {
        Op invoke = new Op(0, "setup", Op.Type.INVOKE, "create-sku", tick(), "a", null, null, null, null, skuId, total,
                null, null, null, null, null, null, Map.of(io.stockguard.chaos.history.Customers.LIMIT,
                        limitPerCustomer), null);
        ops.add(invoke);
        return new Call(invoke).acknowledged(201);
    }

    public HistoryFixtures fault(String name) {
        return call("nemesis", name, null, null, null, null, null, null, null).acknowledged(null);
    }

    public HistoryFixtures heal(String name) {
        return fault(Evidence.HEAL_PREFIX + name);
    }

    // ---- client operations

    /** A hold with the default TTL. */
    public Call reserve(String process, String orderId, String... lines) {
        return hold(process, orderId, DEFAULT_TTL, lines);
    }

    public Call hold(String process, String orderId, long ttlSeconds, String... lines) {
        return call(process, "reserve", orderId, lines(lines), false, ttlSeconds, null, null, null);
    }

    /** A reserve with commit=true: sold at once. */
    public Call sell(String process, String orderId, String... lines) {
        return call(process, "reserve", orderId, lines(lines), true, null, null, null, null);
    }

    public Call confirm(String process, String orderId) {
        return call(process, "confirm", orderId, null, null, null, null, null, null);
    }

    public Call cancel(String process, String orderId) {
        return call(process, "cancel", orderId, null, null, null, null, null, null);
    }

    /** An extension of the order's hold to {@code holdSeconds} from its reservation. */
    public Call extend(String process, String orderId, long holdSeconds) {
        return call(process, "extend", orderId, null, null, holdSeconds, null, null, null);
    }

    public Call restock(String process, String skuId, long qty, String requestId) {
        return call(process, "restock", null, null, null, null, skuId, qty, requestId);
    }

    public Call adjust(String process, String skuId, long delta, String requestId) {
        return call(process, "adjust", null, null, null, null, skuId, delta, requestId);
    }

    public Call readOrder(String process, String orderId) {
        return call(process, "read-order", orderId, null, null, null, null, null, null);
    }

    public Call readSku(String process, String skuId) {
        return call(process, "read-sku", null, null, null, null, skuId, null, null);
    }

    /**
     * Client reads of {@code skuId} (a clean stock) from {@code fromMillis} to before {@code toMillis}, one
     * every {@code everyMillis}, each completed as {@code outcome}: "ok", "unavailable" (503) or "info".
     */
    public HistoryFixtures load(String process, String skuId, long fromMillis, long toMillis, long everyMillis,
            String outcome) {
        long saved = now;
        for (long t = fromMillis; t < toMillis; t += everyMillis) {
            now = t;
            Call read = readSku(process, skuId);
            switch (outcome) {
                case "ok" -> read.stock(10, 10, 0, 0);
                case "unavailable" -> read.unavailable();
                case "info" -> read.info();
                default -> throw new IllegalArgumentException(outcome);
            }
        }
        now = saved;
        return this;
    }

    // ---- the final phase

    /** A final read-order, to be completed as the test needs. */
    public Call finalOrderRead(String orderId) {
        return call(Evidence.FINAL, "read-order", orderId, null, null, null, null, null, null);
    }

    public HistoryFixtures finalOrder(String orderId, String state, String... lines) {
        return finalOrderRead(orderId).complete(Op.Type.OK, 200, null, null, state, lines(lines), null, null);
    }

    public HistoryFixtures finalUnknown(String orderId) {
        return finalOrderRead(orderId).fail(404, "UNKNOWN_ORDER");
    }

    public HistoryFixtures finalSku(String skuId, long total, long available, long reserved, long sold) {
        return finalSku(skuId, stock(total, available, reserved, sold));
    }

    public HistoryFixtures finalSku(String skuId, Op.Stock stock) {
        return call(Evidence.FINAL, "read-sku", null, null, null, null, skuId, null, null)
                .complete(Op.Type.OK, 200, null, null, null, null, stock, null);
    }

    /** A final probe, to be completed as the test needs. */
    public Call probeRead(String skuId) {
        return call(Evidence.FINAL, "probe", null, null, null, null, skuId, null, null);
    }

    public HistoryFixtures probe(String skuId, long driftUnits, long regression, long unmeasured) {
        return probeRead(skuId).numbers(Map.of(
                Op.Final.DRIFT_UNITS, driftUnits, Op.Final.REGRESSION, regression, Op.Final.UNMEASURED, unmeasured));
    }

    public HistoryFixtures buckets(String skuId, Map<String, Long> numbers) {
        return call(Evidence.FINAL, "buckets", null, null, null, null, skuId, null, null).numbers(numbers);
    }

    public HistoryFixtures metrics(String instance, long databaseFallbacks, long takeovers) {
        return metrics(Evidence.FINAL, instance, databaseFallbacks, takeovers);
    }

    /** The counters read when the fault-free stretch before the first fault ended. */
    public HistoryFixtures warmUpMetrics(String instance, long databaseFallbacks, long takeovers) {
        return metrics(Evidence.WARM_UP, instance, databaseFallbacks, takeovers);
    }

    private HistoryFixtures metrics(String process, String instance, long databaseFallbacks, long takeovers) {
        Call read = call(process, "metrics", null, null, null, null, null, null, null);
        read.invoke = read.invoke.withInstance(instance);
        return read.numbers(Map.of(Op.Final.DATABASE_FALLBACKS, databaseFallbacks, Op.Final.TAKEOVERS, takeovers));
    }

    /**
     * A SKU that ends in step: its final read, a clean probe, and one bucket the same in both stores.
     */
    public HistoryFixtures settled(String skuId, long total, long available, long reserved, long sold) {
        Map<String, Long> bucket = new LinkedHashMap<>();
        for (String store : List.of(Op.Final.HOT_PREFIX, Op.Final.DB_PREFIX)) {
            bucket.put(store + "0.available", available);
            bucket.put(store + "0.reserved", reserved);
            bucket.put(store + "0.sold", sold);
        }
        return finalSku(skuId, total, available, reserved, sold).probe(skuId, 0, 0, 0).buckets(skuId, bucket);
    }

    public static Op.Stock stock(long total, long available, long reserved, long sold) {
        return new Op.Stock(total, available, reserved, sold, "NORMAL",
                List.<long[]>of(new long[] {available, reserved, sold}));
    }

    public static List<Op.Line> lines(String... lines) {
        return Arrays.stream(lines).map(l -> l.split(":"))
                .map(p -> new Op.Line(p[0], Integer.parseInt(p[1]))).toList();
    }

    // ---- recording

    private Call call(String process, String f, String orderId, List<Op.Line> lines, Boolean commit, Long ttl,
            String skuId, Long qty, String requestId) {
        Op invoke = new Op(0, process, Op.Type.INVOKE, f, tick(), "a", orderId, lines, commit, ttl, skuId, qty,
                requestId, null, null, null, null, null, null, null);
        ops.add(invoke);
        return new Call(invoke);
    }

    private long tick() {
        long t = now;
        now += 10;
        return t;
    }

    /** An invocation waiting for its completion. */
    public final class Call {

        private Op invoke;
        private final int position;

        private Call(Op invoke) {
            this.invoke = invoke;
            this.position = ops.size() - 1;
        }

        /** reserve: 201, a new order (RESERVED, or CONFIRMED with commit). */
        public HistoryFixtures created() {
            return complete(Op.Type.OK, 201, null, false, reserveState(), invoke.lines(), null, null);
        }

        /** reserve: 200 replayed=true, in the state a reserve leaves. */
        public HistoryFixtures replayed() {
            return replayed(reserveState());
        }

        /** Any change answered 200 replayed=true in {@code state}. */
        public HistoryFixtures replayed(String state) {
            return complete(Op.Type.OK, 200, null, true, state, invoke.lines(), null, null);
        }

        /** confirm / cancel: 200, done now; restock / adjust: 200. */
        public HistoryFixtures ok() {
            String state = switch (invoke.f()) {
                case "confirm" -> "CONFIRMED";
                case "cancel" -> "CANCELLED";
                default -> null;
            };
            return ok(state);
        }

        /** 200 in {@code state}, not a replay. */
        public HistoryFixtures ok(String state) {
            boolean change = List.of("reserve", "confirm", "cancel").contains(invoke.f());
            return complete(Op.Type.OK, 200, null, change ? false : null, state, null, null, null);
        }

        /** Answered with a status of its own, as a raw OK (for answers that break the API). */
        public HistoryFixtures answered(int status, Boolean replayed, String state, String... lines) {
            return complete(Op.Type.OK, status, null, replayed, state, HistoryFixtures.lines(lines), null, null);
        }

        public HistoryFixtures fail(int status, String code) {
            return complete(Op.Type.FAIL, status, code, null, null, null, null, null);
        }

        /** 503 UNAVAILABLE: the API promises it was not applied. */
        public HistoryFixtures unavailable() {
            return fail(503, "UNAVAILABLE");
        }

        /** No answer: it may or may not have landed. */
        public HistoryFixtures info() {
            return complete(Op.Type.INFO, 0, null, null, null, null, null, null);
        }

        /** A 5xx other than 503 UNAVAILABLE (as the client records it: in doubt). */
        public HistoryFixtures inDoubt(int status, String code) {
            return complete(Op.Type.INFO, status, code, null, null, null, null, null);
        }

        /** read-sku: 200 with these counters. */
        public HistoryFixtures stock(long total, long available, long reserved, long sold) {
            return stock(HistoryFixtures.stock(total, available, reserved, sold));
        }

        public HistoryFixtures stock(Op.Stock stock) {
            return complete(Op.Type.OK, 200, null, null, null, null, stock, null);
        }

        HistoryFixtures numbers(Map<String, Long> numbers) {
            return complete(Op.Type.OK, 200, null, null, null, null, null, numbers);
        }

        HistoryFixtures acknowledged(Integer status) {
            return complete(Op.Type.OK, status, null, null, null, null, null, null);
        }

        HistoryFixtures complete(Op.Type type, Integer status, String code, Boolean replayed, String state,
                List<Op.Line> lines, Op.Stock stock, Map<String, Long> numbers) {
            ops.set(position, invoke);
            ops.add(invoke.complete(0, type, tick()).withAnswer(status, code, replayed, state, lines, stock, numbers,
                    null));
            return HistoryFixtures.this;
        }

        private String reserveState() {
            return Boolean.TRUE.equals(invoke.commit()) ? "CONFIRMED" : "RESERVED";
        }
    }
}
