package io.stockguard.reservation;

import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLimits;
import io.stockguard.stock.StockLine;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A request to hold stock for every line of an order, all or nothing.
 *
 * @param ttl how long an unconfirmed reservation holds its stock; ignored when {@code commit}
 * @param commit reserve and confirm in one step
 * @param customerId who the order is for, or null: what a SKU's per-customer limit counts by
 */
public record ReserveCommand(OrderId orderId, List<StockLine> lines, Duration ttl, boolean commit, Caller caller,
        CustomerId customerId) {

    /** An order for no named customer: no per-customer limit applies to it. */
    public ReserveCommand(OrderId orderId, List<StockLine> lines, Duration ttl, boolean commit, Caller caller) {
        this(orderId, lines, ttl, commit, caller, null);
    }

    public ReserveCommand {
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(ttl, "ttl");
        if (lines == null || lines.isEmpty() || lines.size() > StockLimits.LINES_PER_ORDER_MAX) {
            throw new InvalidRequestException("lines", "must hold 1 to " + StockLimits.LINES_PER_ORDER_MAX + " lines");
        }
        Set<SkuId> seen = new HashSet<>();
        for (StockLine line : lines) {
            if (!seen.add(line.skuId())) {
                throw new InvalidRequestException("lines", "names SKU " + line.skuId() + " twice; merge the lines");
            }
        }
        if (ttl.compareTo(StockLimits.TTL_MIN) < 0 || ttl.compareTo(StockLimits.TTL_MAX) > 0) {
            throw new InvalidRequestException("ttlSeconds",
                    "must be between " + StockLimits.TTL_MIN.toSeconds() + " and " + StockLimits.TTL_MAX.toSeconds());
        }
        lines = List.copyOf(lines);
    }

    /**
     * The lines sorted by SKU. Every transaction touches SKUs in this order, so two multi-line
     * orders never wait on each other's buckets in a cycle.
     */
    public List<StockLine> linesInLockOrder() {
        return lines.stream().sorted(Comparator.comparing(StockLine::skuId)).toList();
    }

    /**
     * What makes two reserve requests the same request: the lines (in any order), the commit
     * flag and the customer. A retry with the same fingerprint gets the original outcome; a
     * different one is an idempotency conflict. The TTL is not part of it: a retry that asks for
     * another TTL is still the same order.
     */
    public String fingerprint() {
        StringBuilder canonical = new StringBuilder(commit ? "commit" : "hold");
        for (StockLine line : linesInLockOrder()) {
            canonical.append('|').append(line.skuId().value()).append('=').append(line.qty());
        }
        if (customerId != null) {
            // Appended only when there is one, so the fingerprints of orders without a customer
            // (stored before customers existed) stay as they were.
            canonical.append("|customer=").append(customerId.value());
        }
        return sha256(canonical.toString());
    }

    public static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM provides SHA-256", e);
        }
    }
}
