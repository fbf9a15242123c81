package io.stockguard.reservation.web;

import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.Violations;
import io.stockguard.reservation.HoldExtension;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLimits;
import io.stockguard.stock.StockLine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Turns request bodies into commands, reporting every violation at once with its JSON path. */
final class RequestCommands {

    private RequestCommands() {
    }

    static ReserveCommand reserve(Dtos.ReserveRequest body, Duration defaultTtl, Caller caller) {
        if (body == null) {
            throw new InvalidRequestException("body", "is required");
        }
        Violations violations = new Violations();
        OrderId orderId = violations.check("orderId", () -> OrderId.of(body.orderId()));
        CustomerId customerId = body.customerId() == null ? null
                : violations.check("customerId", () -> CustomerId.of(body.customerId()));
        List<StockLine> lines = lines(body.lines(), violations);
        Duration ttl = defaultTtl;
        if (body.ttlSeconds() != null) {
            long seconds = body.ttlSeconds();
            if (seconds < StockLimits.TTL_MIN.toSeconds() || seconds > StockLimits.TTL_MAX.toSeconds()) {
                violations.add("ttlSeconds", "must be between " + StockLimits.TTL_MIN.toSeconds() + " and "
                        + StockLimits.TTL_MAX.toSeconds());
            } else {
                ttl = Duration.ofSeconds(seconds);
            }
        }
        violations.throwIfAny();
        boolean commit = Boolean.TRUE.equals(body.commit());
        Duration checkedTtl = ttl;
        ReserveCommand command = violations.check("lines",
                () -> new ReserveCommand(orderId, lines, checkedTtl, commit, caller, customerId));
        violations.throwIfAny();
        return command;
    }

    static HoldExtension extend(String orderId, Dtos.ExtendRequest body, Caller caller) {
        if (body == null) {
            throw new InvalidRequestException("body", "is required: {\"ttlSeconds\": …}");
        }
        OrderId order = OrderId.of(orderId);
        Long seconds = body.ttlSeconds();
        if (seconds != null && (seconds < StockLimits.TTL_MIN.toSeconds() || seconds > StockLimits.TTL_MAX.toSeconds())) {
            throw new InvalidRequestException("ttlSeconds", "must be between " + StockLimits.TTL_MIN.toSeconds()
                    + " and " + StockLimits.TTL_MAX.toSeconds());
        }
        return new HoldExtension(order, seconds == null ? null : Duration.ofSeconds(seconds), caller);
    }

    private static List<StockLine> lines(List<Dtos.LineRequest> requested, Violations violations) {
        if (requested == null || requested.isEmpty()) {
            violations.add("lines", "must hold at least one line");
            return List.of();
        }
        if (requested.size() > StockLimits.LINES_PER_ORDER_MAX) {
            violations.add("lines", "must hold at most " + StockLimits.LINES_PER_ORDER_MAX + " lines");
            return List.of();
        }
        List<StockLine> lines = new ArrayList<>(requested.size());
        for (int i = 0; i < requested.size(); i++) {
            Dtos.LineRequest line = requested.get(i);
            String path = "lines[" + i + "]";
            if (line == null) {
                violations.add(path, "must be an object with skuId and qty");
                continue;
            }
            SkuId skuId = violations.check(path + ".skuId", () -> SkuId.of(line.skuId()));
            int qty = quantity(line.qty(), path + ".qty", violations);
            if (skuId != null && qty > 0) {
                lines.add(new StockLine(skuId, qty));
            }
        }
        return lines;
    }

    private static int quantity(Long qty, String path, Violations violations) {
        if (qty == null) {
            violations.add(path, "is required");
            return 0;
        }
        if (qty < 1 || qty > StockLimits.QUANTITY_PER_LINE_MAX) {
            violations.add(path, "must be between 1 and " + StockLimits.QUANTITY_PER_LINE_MAX);
            return 0;
        }
        return qty.intValue();
    }

    static long required(Long value, String field) {
        if (value == null) {
            throw new InvalidRequestException(field, "is required");
        }
        return value;
    }

    static Integer bucketCount(Long buckets) {
        if (buckets == null) {
            return null;
        }
        if (buckets < 1 || buckets > StockLimits.BUCKETS_MAX) {
            throw new InvalidRequestException("buckets", "must be between 1 and " + StockLimits.BUCKETS_MAX);
        }
        return buckets.intValue();
    }
}
