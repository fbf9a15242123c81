package io.stockguard.chaos.check;

import io.stockguard.chaos.history.History;
import io.stockguard.chaos.history.Op;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A history indexed once for every rule: each invocation paired with its completion (the next
 * completion of the same process), grouped by order and by SKU.
 */
public final class Evidence {

    public static final String FINAL = "final";
    public static final String SETUP = "setup";
    public static final String NEMESIS = "nemesis";
    /** Reads taken at the end of the load's fault-free stretch, before the first fault. */
    public static final String WARM_UP = "warmup";
    public static final String HEAL_PREFIX = "heal-";

    private final List<Op> ops;
    private final Map<String, OrderFacts> orders = new LinkedHashMap<>();
    private final Map<String, SkuFacts> skus = new LinkedHashMap<>();
    private final List<Attempt> metrics = new ArrayList<>();
    private final List<Attempt> warmUpMetrics = new ArrayList<>();
    private final List<Op> clientAnswers = new ArrayList<>();

    private Evidence(List<Op> ops) {
        this.ops = List.copyOf(ops);
        for (Op op : this.ops) {
            if (op.isClient() && !op.isInvoke()) {
                clientAnswers.add(op); // in the order they completed, which the liveness windows need
            }
        }
        for (Attempt attempt : pair(this.ops)) {
            file(attempt);
        }
        // SKUs that orders finally hold must be accounted for even if nothing else names them.
        for (OrderFacts order : orders.values()) {
            OrderState state = order.finalState().orElse(null);
            if (state == OrderState.RESERVED || state == OrderState.CONFIRMED) {
                order.finalLines().forEach(line -> sku(line.skuId()).held = true);
            }
        }
    }

    public static Evidence of(History history) {
        return new Evidence(history.ops());
    }

    public static Evidence of(List<Op> ops) {
        return new Evidence(ops);
    }

    public List<Op> ops() {
        return ops;
    }

    public Collection<OrderFacts> orders() {
        return orders.values();
    }

    /** Every SKU the history names. */
    public Collection<SkuFacts> skus() {
        return skus.values();
    }

    /**
     * The SKUs the end of the run must account for: set up, read in the final phase, or held by an
     * order at the end. A SKU only a client named (a read or restock of an unknown SKU) is not one.
     */
    public List<SkuFacts> catalogue() {
        return skus.values().stream().filter(SkuFacts::catalogued).toList();
    }

    /** The final {@code metrics} reads, one per instance. */
    public List<Attempt> metrics() {
        return metrics;
    }

    /** The {@code metrics} reads taken when the fault-free stretch before the first fault ended. */
    public List<Attempt> warmUpMetrics() {
        return warmUpMetrics;
    }

    /** When the first fault was invoked; empty in a run without faults. */
    public OptionalLong firstFaultAt() {
        return ops.stream().filter(Evidence::isFaultInvoke).mapToLong(Op::atMillis).findFirst();
    }

    /** Completions of client operations, in history order: the answers the load got. */
    public List<Op> clientAnswers() {
        return clientAnswers;
    }

    /** When the last client answer came; empty when the load got none. */
    public OptionalLong lastClientAnswerAt() {
        return clientAnswers.isEmpty() ? OptionalLong.empty()
                : OptionalLong.of(clientAnswers.getLast().atMillis());
    }

    /** A nemesis op that completed a heal. */
    public static boolean isHeal(Op op) {
        return NEMESIS.equals(op.process()) && op.type() == Op.Type.OK && op.f().startsWith(HEAL_PREFIX);
    }

    /** A nemesis op that starts injecting a fault. */
    public static boolean isFaultInvoke(Op op) {
        return NEMESIS.equals(op.process()) && op.isInvoke() && !op.f().startsWith(HEAL_PREFIX);
    }

    /**
     * Pairs each invocation with the next completion of its process. A completion with no open
     * invocation (a malformed history) is kept as an attempt of its own rather than dropped.
     */
    static List<Attempt> pair(List<Op> ops) {
        List<Attempt> attempts = new ArrayList<>();
        Map<String, Integer> open = new HashMap<>();
        for (Op op : ops) {
            if (op.isInvoke()) {
                // a second invocation before the first completed leaves the first without an answer
                open.put(op.process(), attempts.size());
                attempts.add(new Attempt(op, null));
            } else {
                Integer at = open.remove(op.process());
                if (at == null) {
                    attempts.add(new Attempt(op, op));
                } else {
                    attempts.set(at, new Attempt(attempts.get(at).invoke(), op));
                }
            }
        }
        return attempts;
    }

    private void file(Attempt attempt) {
        Op invoke = attempt.invoke();
        String process = invoke.process();
        if (NEMESIS.equals(process)) {
            return;
        }
        if (WARM_UP.equals(process)) {
            if (invoke.f().equals("metrics")) {
                warmUpMetrics.add(attempt);
            }
            return;
        }
        // The final reads run on several readers, "final" and "final-<n>", each one operation at a time.
        boolean last = FINAL.equals(process) || process.startsWith(FINAL + "-");
        switch (invoke.f()) {
            case "reserve" -> order(invoke).reserves.add(attempt);
            case "confirm" -> order(invoke).confirms.add(attempt);
            case "cancel" -> order(invoke).cancels.add(attempt);
            case "extend" -> order(invoke).extensions.add(attempt);
            case "read-order" -> {
                OrderFacts order = order(invoke);
                if (last) {
                    order.finalRead = attempt;
                } else {
                    order.runReads.add(attempt);
                }
            }
            case "create-sku" -> sku(invoke).created = attempt;
            case "restock" -> sku(invoke).restocks.add(attempt);
            case "adjust" -> sku(invoke).adjusts.add(attempt);
            case "read-sku" -> {
                SkuFacts sku = sku(invoke);
                if (last) {
                    sku.finalRead = attempt;
                } else {
                    sku.runReads.add(attempt);
                }
            }
            case "probe" -> sku(invoke).probe = attempt;
            case "buckets" -> sku(invoke).buckets = attempt;
            case "metrics" -> metrics.add(attempt);
            default -> {
                // an operation the checker has no rule about
            }
        }
    }

    private OrderFacts order(Op op) {
        return orders.computeIfAbsent(String.valueOf(op.orderId()), OrderFacts::new);
    }

    private SkuFacts sku(Op op) {
        return sku(String.valueOf(op.skuId()));
    }

    private SkuFacts sku(String skuId) {
        return skus.computeIfAbsent(skuId, SkuFacts::new);
    }
}
