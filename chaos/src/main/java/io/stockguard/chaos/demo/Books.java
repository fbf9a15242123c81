package io.stockguard.chaos.demo;

import io.stockguard.chaos.check.Evidence;
import io.stockguard.chaos.check.OrderFacts;
import io.stockguard.chaos.check.OrderState;
import io.stockguard.chaos.check.SkuFacts;
import io.stockguard.chaos.history.History;
import io.stockguard.chaos.history.Op;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The demo's closing books, one line per SKU of the catalogue: what the stores hold at the end
 * against what the order services were told (sold: the orders acknowledged as confirmed; held: the
 * orders read as reserved at the end), what was oversold (a read, during the run or at the end, with
 * more reserved and sold than the total), and the final probe's drift between Redis and the
 * database. The final reads come once every hold that could end during them has ended (Run), so
 * both sides are one state and must be equal to the unit: the demo's verdict depends on it.
 */
final class Books {

    /** One SKU's line. */
    record Line(String sku, long total, long available, long reserved, long heldByOrders, long sold,
            long soldToOrders, long oversold, Long drift) {

        /** Everything adds up: what the stores hold is what the orders were told, and nothing more was sold. */
        boolean balanced() {
            return sold == soldToOrders && reserved == heldByOrders && oversold == 0 && (drift == null || drift == 0)
                    && available + reserved + sold == total;
        }
    }

    private Books() {
    }

    static List<Line> of(History history) {
        Evidence evidence = Evidence.of(history);
        List<Line> lines = new ArrayList<>();
        for (SkuFacts sku : evidence.catalogue()) {
            Op.Stock end = sku.finalStock().orElse(null);
            if (end == null) {
                continue;
            }
            long held = 0;
            long soldToOrders = 0;
            for (OrderFacts order : evidence.orders()) {
                long units = order.finalLines().stream().filter(l -> l.skuId().equals(sku.skuId()))
                        .mapToLong(Op.Line::qty).sum();
                OrderState state = order.finalState().orElse(null);
                if (state == OrderState.RESERVED) {
                    held += units;
                } else if (state == OrderState.CONFIRMED) {
                    soldToOrders += units;
                }
            }
            long oversold = Math.max(0, end.reserved() + end.sold() - end.total());
            for (var read : sku.runReads()) {
                Op.Stock seen = read.acknowledged() ? read.answer().stock() : null;
                if (seen != null) {
                    oversold = Math.max(oversold, seen.reserved() + seen.sold() - seen.total());
                }
            }
            Long drift = sku.probe().filter(p -> p.acknowledged() && p.answer().numbers() != null)
                    .map(p -> p.answer().numbers().get(Op.Final.DRIFT_UNITS)).orElse(null);
            lines.add(new Line(sku.skuId(), end.total(), end.available(), end.reserved(), held, end.sold(),
                    soldToOrders, oversold, drift));
        }
        return lines;
    }

    /** The table as printed: a header, then one row per SKU. */
    static String render(List<Line> lines) {
        StringBuilder text = new StringBuilder(String.format("%-8s %7s %9s %17s %15s %8s %6s%n", "SKU", "total",
                "available", "reserved (held)", "sold (to orders)", "oversold", "drift"));
        for (Line line : lines) {
            text.append(String.format("%-8s %7d %9d %8d (%6d) %7d (%6d) %8d %6s%s%n", line.sku(), line.total(),
                    line.available(), line.reserved(), line.heldByOrders(), line.sold(), line.soldToOrders(),
                    line.oversold(), line.drift() == null ? "?" : line.drift().toString(),
                    line.balanced() ? "" : "  <- look"));
        }
        return text.toString();
    }

    /** Events the database writer gave up on, as the database's table holds them at the end. */
    static long deadLetters(Path folder) {
        Path table = folder.resolve("db-dead_letter.tsv");
        if (!Files.isRegularFile(table)) {
            return -1;
        }
        try (var rows = Files.lines(table)) {
            return Math.max(0, rows.count() - 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Requests answered per second in each stretch of the load, with the stock queries and the reservations made. */
    static String traffic(History history, Map<String, long[]> stretches) {
        StringBuilder text = new StringBuilder();
        List<Op> ops = history.ops();
        stretches.forEach((name, window) -> {
            long answered = 0;
            long queries = 0;
            long reserved = 0;
            for (Op op : ops) {
                if (op.isClient() && !op.isInvoke() && op.atMillis() >= window[0] && op.atMillis() < window[1]) {
                    answered++;
                    queries += op.f().equals("read-sku") ? 1 : 0;
                    reserved += op.f().equals("reserve") && op.type() == Op.Type.OK ? 1 : 0;
                }
            }
            double seconds = Math.max(1, window[1] - window[0]) / 1_000.0;
            text.append(String.format("  %-16s %6.0f req/s: %6.0f stock queries/s, %5.0f reservations made/s (%.0f s)%n",
                    name, answered / seconds, queries / seconds, reserved / seconds, seconds));
        });
        return text.toString();
    }
}
