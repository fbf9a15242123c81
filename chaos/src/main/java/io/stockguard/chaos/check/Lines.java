package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.Comparator;
import java.util.List;

/** Order lines compared as a multiset: the service may answer them in any order. */
final class Lines {

    private static final Comparator<Op.Line> ORDER = Comparator.comparing(Op.Line::skuId)
            .thenComparingInt(Op.Line::qty);

    private Lines() {
    }

    static boolean same(List<Op.Line> a, List<Op.Line> b) {
        List<Op.Line> left = a == null ? List.of() : a;
        List<Op.Line> right = b == null ? List.of() : b;
        return left.size() == right.size() && left.stream().sorted(ORDER).toList()
                .equals(right.stream().sorted(ORDER).toList());
    }

    /** Units of {@code skuId} in {@code lines}. */
    static long units(List<Op.Line> lines, String skuId) {
        return lines.stream().filter(l -> l.skuId().equals(skuId)).mapToLong(Op.Line::qty).sum();
    }
}
