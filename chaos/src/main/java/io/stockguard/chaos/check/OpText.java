package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Operations as a person reads them in a counter-example: one line each, only the fields that are set. */
public final class OpText {

    /** Counter-examples show at most this many operations. */
    static final int MAX_LINES = 40;

    private OpText() {
    }

    public static String line(Op op) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "#%-6d %9s %-8s %-6s %s", op.index(),
                seconds(op.atMillis()), op.process(), op.type(), op.f()));
        field(b, "order", op.orderId());
        field(b, "sku", op.skuId());
        if (op.lines() != null) {
            b.append(' ').append(lines(op.lines()));
        }
        if (Boolean.TRUE.equals(op.commit())) {
            b.append(" commit");
        }
        field(b, "ttl", op.ttlSeconds());
        field(b, "qty", op.qty());
        field(b, "request", op.requestId());
        if (op.status() != null) {
            b.append(" -> ").append(op.status());
            if (op.code() != null) {
                b.append(' ').append(op.code());
            }
        }
        if (op.state() != null) {
            b.append(' ').append(op.state());
        }
        if (Boolean.TRUE.equals(op.replayed())) {
            b.append(" replayed");
        }
        if (op.stock() != null) {
            b.append(' ').append(stock(op.stock()));
        }
        if (op.numbers() != null && !op.numbers().isEmpty()) {
            b.append(' ').append(new TreeMap<>(op.numbers()));
        }
        field(b, "on", op.instance());
        if (op.detail() != null) {
            b.append(" (").append(op.detail()).append(')');
        }
        return b.toString();
    }

    /** One line per operation, at most {@link #MAX_LINES}. */
    public static String lines(Collection<Op> ops) {
        List<String> shown = ops.stream().limit(MAX_LINES).map(OpText::line).toList();
        String text = String.join("\n", shown);
        return ops.size() > MAX_LINES ? text + "\n… " + (ops.size() - MAX_LINES) + " more" : text;
    }

    public static String lines(List<Op.Line> lines) {
        return lines.stream().map(l -> l.skuId() + "x" + l.qty()).collect(Collectors.joining(", ", "[", "]"));
    }

    public static String stock(Op.Stock s) {
        String buckets = s.buckets() == null ? "" : " buckets="
                + s.buckets().stream().map(Arrays::toString).collect(Collectors.joining(",", "[", "]"));
        return "{total=" + s.total() + " available=" + s.available() + " reserved=" + s.reserved() + " sold="
                + s.sold() + (s.mode() == null ? "" : " mode=" + s.mode()) + buckets + "}";
    }

    public static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.3fs", millis / 1000.0);
    }

    private static void field(StringBuilder b, String name, Object value) {
        if (value != null) {
            b.append(' ').append(name).append('=').append(value);
        }
    }
}
