package io.stockguard.hotstore;

import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.platform.TraceId;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.Map;

/** Outbox stream entries, as the scripts write them, back into journal events. */
final class OutboxEvents {

    private OutboxEvents() {
    }

    static StockEvent toEvent(Map<String, String> fields) {
        StockOp op = StockOp.valueOf(fields.get("op"));
        String order = fields.get("o");
        String request = fields.get("rq");
        String trace = fields.get("tr");
        String fingerprint = fields.get("fp");
        long expires = Long.parseLong(fields.getOrDefault("ex", "0"));
        return new StockEvent(fields.get("id"), SkuId.of(fields.get("sku")), Integer.parseInt(fields.get("b")), op,
                op.isOrderOperation() ? OrderId.of(order) : null,
                op.isOrderOperation() || request == null || request.isEmpty() ? null : request,
                Long.parseLong(fields.get("q")), Long.parseLong(fields.get("da")), Long.parseLong(fields.get("dr")),
                Long.parseLong(fields.get("ds")), trace == null || trace.isEmpty() ? null : new TraceId(trace),
                fields.get("ac"), Instant.ofEpochMilli(Long.parseLong(fields.get("at"))),
                Long.parseLong(fields.get("ep")), Long.parseLong(fields.get("sq")),
                fingerprint == null || fingerprint.isEmpty() ? null : fingerprint,
                expires == 0 ? null : Instant.ofEpochMilli(expires), number(fields.get("ha")),
                number(fields.get("hj")), CustomerId.ofNullable(fields.get("cu")));
    }

    private static Long number(String value) {
        return value == null || value.isEmpty() ? null : Long.parseLong(value);
    }
}
