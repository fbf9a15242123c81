package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Exact accounting of every SKU. At the end: available + reserved + sold = total, nothing
 * negative, the total is the initial one moved by the restocks and adjustments that landed (those
 * in doubt may or may not have), reserved is what RESERVED orders hold and sold what CONFIRMED ones
 * do. During the run: no read ever shows more reserved and sold than the total, nor a negative count.
 */
final class Bank extends Rule {

    static final String NAME = "bank";

    Bank() {
        super(NAME);
    }

    @Override
    String judge(Evidence evidence, CheckOptions options, Violations violations) {
        int runReads = 0;
        int unbounded = 0;
        for (SkuFacts sku : evidence.skus()) {
            // a SKU only a client named has nothing to account at the end, but its reads must not oversell either
            if (sku.catalogued()) {
                unbounded += sku.initialTotal().isEmpty() ? 1 : 0;
                accountAtEnd(sku, evidence, options, violations);
            }
            for (Attempt read : sku.runReads()) {
                if (!read.acknowledged() || read.answer().stock() == null) {
                    continue;
                }
                runReads++;
                String problem = oversold(read.answer().stock());
                if (problem != null) {
                    violations.add("SKU " + sku.skuId() + ": a read during the run shows " + problem, read.ops());
                }
            }
        }
        int skus = evidence.catalogue().size();
        String totals = unbounded == 0 ? "" : " (" + unbounded + " without a create-sku: total not bounded)";
        return violations.none()
                ? skus + " SKUs balance exactly" + totals + "; " + runReads + " reads during the run, none oversold"
                : violations.count() + " accounting violations over " + skus + " SKUs" + totals + " and " + runReads
                        + " reads during the run";
    }

    private static void accountAtEnd(SkuFacts sku, Evidence evidence, CheckOptions options, Violations violations) {
        Optional<Op.Stock> stock = sku.finalStock();
        if (stock.isEmpty()) {
            violations.add("SKU " + sku.skuId() + ": no acknowledged final read-sku, so it cannot be accounted",
                    sku.finalRead().map(Attempt::ops).orElse(List.of()));
            return;
        }
        String problem = finalProblem(sku, stock.get(), evidence, options);
        if (problem != null) {
            violations.add(problem, accountOps(sku, evidence));
        }
    }

    private static String finalProblem(SkuFacts sku, Op.Stock s, Evidence evidence, CheckOptions options) {
        String id = "SKU " + sku.skuId() + ": ";
        if (s.available() + s.reserved() + s.sold() != s.total()) {
            return id + "available " + s.available() + " + reserved " + s.reserved() + " + sold " + s.sold() + " = "
                    + (s.available() + s.reserved() + s.sold()) + " but total is " + s.total();
        }
        String negative = negative(s);
        if (negative != null) {
            return id + "final read shows " + negative;
        }
        if (sku.initialTotal().isPresent()) {
            long[] total = totalBounds(sku, sku.initialTotal().get());
            if (s.total() < total[0] || s.total() > total[1]) {
                return id + "total " + s.total() + " but the initial " + sku.initialTotal().get()
                        + " with the restocks and adjustments that landed allows " + range(total) + " (off by "
                        + (s.total() < total[0] ? s.total() - total[0] : s.total() - total[1]) + ")";
            }
        }
        long[] reserved = {0, 0};
        long sold = 0;
        Attempt skuRead = sku.finalRead().orElseThrow();
        for (OrderFacts order : evidence.orders()) {
            long units = Lines.units(order.finalLines(), sku.skuId());
            OrderState state = order.finalState().orElse(null);
            if (units == 0 || state == null) {
                continue;
            }
            switch (state) {
                case RESERVED -> {
                    reserved[1] += units;
                    if (!expiredBefore(order, skuRead, options)) {
                        reserved[0] += units;
                    }
                }
                case EXPIRED -> {
                    if (reservedWhen(order, skuRead)) {
                        reserved[1] += units;
                    }
                }
                case CONFIRMED -> sold += units;
                default -> {
                }
            }
        }
        if (s.reserved() < reserved[0] || s.reserved() > reserved[1]) {
            return id + "reserved " + s.reserved() + " but RESERVED orders hold " + range(reserved) + " (off by "
                    + (s.reserved() < reserved[0] ? s.reserved() - reserved[0] : s.reserved() - reserved[1]) + ")";
        }
        if (s.sold() != sold) {
            return id + "sold " + s.sold() + " but CONFIRMED orders hold " + sold + " (off by " + (s.sold() - sold)
                    + ")";
        }
        return null;
    }

    /**
     * The least and the most the total can be: acknowledged restocks and adjustments count once per
     * request id (retries share it); those only in doubt may have landed or not.
     */
    private static long[] totalBounds(SkuFacts sku, long initial) {
        Map<String, List<Attempt>> requests = new LinkedHashMap<>();
        Stream.concat(sku.restocks().stream(), sku.adjusts().stream()).forEach(a -> requests.computeIfAbsent(
                a.invoke().requestId() == null ? "#" + a.invoke().index() : a.invoke().requestId(),
                k -> new ArrayList<>()).add(a));
        long[] bounds = {initial, initial};
        for (List<Attempt> attempts : requests.values()) {
            long delta = attempts.getFirst().invoke().qty() == null ? 0 : attempts.getFirst().invoke().qty();
            if (attempts.stream().anyMatch(Attempt::acknowledged)) {
                bounds[0] += delta;
                bounds[1] += delta;
            } else if (OrderFacts.mayHaveApplied(attempts)) {
                bounds[0] += Math.min(0, delta);
                bounds[1] += Math.max(0, delta);
            }
        }
        return bounds;
    }

    /**
     * The final read-order saw RESERVED, but the hold may have expired before the read-sku. The final
     * reads come after every heal, clocks included, so a hold expires then no earlier than its TTL.
     */
    private static boolean expiredBefore(OrderFacts order, Attempt skuRead, CheckOptions options) {
        Attempt orderRead = order.finalRead().orElseThrow();
        return skuRead.completedAt() > orderRead.invokedAt()
                && NoLostAck.mayHaveExpired(order, skuRead.completedAt(), options.withClockSkewAllowanceMillis(0));
    }

    /** The final read-order saw EXPIRED, but the read-sku may have come before the expiry. */
    private static boolean reservedWhen(OrderFacts order, Attempt skuRead) {
        return skuRead.invokedAt() < order.finalRead().orElseThrow().completedAt();
    }

    /** What makes a read an oversell (or a negative count), or null. */
    private static String oversold(Op.Stock s) {
        if (s.reserved() + s.sold() > s.total()) {
            return "reserved " + s.reserved() + " + sold " + s.sold() + " over total " + s.total();
        }
        return negative(s);
    }

    private static String negative(Op.Stock s) {
        if (s.available() < 0 || s.reserved() < 0 || s.sold() < 0 || s.total() < 0) {
            return "a negative count " + OpText.stock(s);
        }
        if (s.buckets() != null) {
            for (int i = 0; i < s.buckets().size(); i++) {
                for (long count : s.buckets().get(i)) {
                    if (count < 0) {
                        return "a negative count in bucket " + i + " " + OpText.stock(s);
                    }
                }
            }
        }
        return null;
    }

    private static String range(long[] bounds) {
        return bounds[0] == bounds[1] ? String.valueOf(bounds[0]) : bounds[0] + ".." + bounds[1];
    }

    /** The SKU's final read, then the final reads of the orders that hold it: the two sides of the account. */
    private static List<Op> accountOps(SkuFacts sku, Evidence evidence) {
        List<Op> ops = new ArrayList<>(sku.finalRead().map(Attempt::ops).orElse(List.of()));
        sku.created().ifPresent(a -> ops.add(a.answer() == null ? a.invoke() : a.answer()));
        Stream.concat(sku.restocks().stream(), sku.adjusts().stream()).forEach(a -> ops.addAll(a.ops()));
        evidence.orders().stream().filter(o -> Lines.units(o.finalLines(), sku.skuId()) > 0)
                .forEach(o -> ops.add(o.finalRead().orElseThrow().answer()));
        return ops;
    }
}
