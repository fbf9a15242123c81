package io.stockguard.hotstore;

import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The text an order's record keeps in the hot store (order.lua): its lines as asked
 * ("sku|qty;…"), its lines as reserved with their buckets and the epoch each was recorded under
 * ("sku|qty|bucket|epoch;…"), its state, and times in epoch milliseconds. Written and read here only.
 */
final class RecordedLines {

    private RecordedLines() {
    }

    static String encode(List<StockLine> lines) {
        StringBuilder text = new StringBuilder();
        for (StockLine line : lines) {
            text.append(text.isEmpty() ? "" : ";").append(line.skuId().value()).append('|').append(line.qty());
        }
        return text.toString();
    }

    static String encodeWithBuckets(List<ReservedLine> lines, Map<SkuId, Long> epochs) {
        StringBuilder text = new StringBuilder();
        for (ReservedLine line : lines) {
            text.append(text.isEmpty() ? "" : ";").append(line.skuId().value()).append('|').append(line.qty())
                    .append('|').append(line.bucket()).append('|').append(epochs.getOrDefault(line.skuId(), 0L));
        }
        return text.toString();
    }

    /**
     * The epoch each line of a closed order was recorded under, from "sku|qty|bucket|epoch;…"; a
     * line recorded without one (or not yet closed) reads as epoch 0, which no hot store has.
     */
    static Map<SkuId, Long> epochs(String text) {
        Map<SkuId, Long> epochs = new LinkedHashMap<>();
        if (text == null || text.isEmpty()) {
            return epochs;
        }
        for (String part : text.split(";")) {
            String[] fields = part.split("\\|");
            epochs.put(SkuId.of(fields[0]), fields.length > 3 ? Long.parseLong(fields[3]) : 0L);
        }
        return epochs;
    }

    /** Lines "sku|qty;…" as stored by OPEN. */
    static List<StockLine> decode(String text) {
        List<StockLine> lines = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return lines;
        }
        for (String part : text.split(";")) {
            String[] fields = part.split("\\|");
            lines.add(new StockLine(SkuId.of(fields[0]), Integer.parseInt(fields[1])));
        }
        return lines;
    }

    /** Lines "sku|qty|bucket|epoch;…" as stored by CLOSE. */
    static List<ReservedLine> decodeWithBuckets(String text) {
        List<ReservedLine> lines = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return lines;
        }
        for (String part : text.split(";")) {
            String[] fields = part.split("\\|");
            lines.add(new ReservedLine(SkuId.of(fields[0]), Integer.parseInt(fields[1]), Integer.parseInt(fields[2])));
        }
        return lines;
    }

    /**
     * An order record's state as the API names it. The transitional states name where the order is
     * going: a confirm or cancel in progress has already been decided.
     */
    static ReservationState state(String recorded) {
        return switch (recorded) {
            case "OPENING", "RESERVED" -> ReservationState.RESERVED;
            case "CONFIRMING", "CONFIRMED" -> ReservationState.CONFIRMED;
            case "CANCELLING", "CANCELLED" -> ReservationState.CANCELLED;
            case "EXPIRING", "EXPIRED" -> ReservationState.EXPIRED;
            default -> throw new IllegalStateException("unknown order record state " + recorded);
        };
    }

    static String millis(Instant instant) {
        return instant == null ? "0" : Long.toString(instant.toEpochMilli());
    }

    static Instant instant(String millis) {
        long value = millis == null || millis.isEmpty() ? 0 : Long.parseLong(millis);
        return value == 0 ? null : Instant.ofEpochMilli(value);
    }
}
