package io.stockguard.alerting;

import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One thing people should know about. Text longer than its limit is shortened rather than refused:
 * an alert about a problem must not itself fail because of a long error message.
 *
 * @param kind what happened, short and stable ({@code drift}, {@code dead-letter}); part of the dedupe key
 * @param skuId the SKU concerned, or null when the alert is about the service as a whole
 * @param title one line, at most {@value #TITLE_LENGTH_MAX} characters
 * @param detail the facts behind it, at most {@value #DETAIL_LENGTH_MAX} characters (never secrets)
 * @param at when it was observed
 * @param dedupeKey repeats with the same key within the dedupe window are not sent again; by
 *     default kind, SKU and level ({@link #dedupeKeyOf})
 */
public record Alert(AlertLevel level, String kind, String skuId, String title, String detail, Instant at,
        String dedupeKey) {

    public static final int KIND_LENGTH_MAX = 64;
    public static final int TITLE_LENGTH_MAX = 200;
    public static final int DETAIL_LENGTH_MAX = 2_000;
    public static final int SKU_LENGTH_MAX = 64;
    public static final int DEDUPE_KEY_LENGTH_MAX = 200;
    private static final Pattern KIND = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    public Alert {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(at, "at");
        if (kind == null || !KIND.matcher(kind).matches()) {
            throw new IllegalArgumentException("an alert kind is 1 to 64 of a-z 0-9 . _ -, was " + kind);
        }
        skuId = skuId == null || skuId.isBlank() ? null : shorten(skuId.strip(), SKU_LENGTH_MAX);
        title = shorten(title == null || title.isBlank() ? kind : title.strip(), TITLE_LENGTH_MAX);
        detail = shorten(detail == null ? "" : detail.strip(), DETAIL_LENGTH_MAX);
        dedupeKey = shorten(dedupeKey == null || dedupeKey.isBlank() ? dedupeKeyOf(kind, skuId, level) : dedupeKey,
                DEDUPE_KEY_LENGTH_MAX);
    }

    /** An alert deduplicated by kind, SKU and level: the usual way to raise one. */
    public static Alert of(AlertLevel level, String kind, String skuId, String title, String detail, Instant at) {
        return new Alert(level, kind, skuId, title, detail, at, null);
    }

    public static Alert of(AlertLevel level, String kind, SkuId skuId, String title, String detail, Instant at) {
        return of(level, kind, skuId == null ? null : skuId.value(), title, detail, at);
    }

    public static String dedupeKeyOf(String kind, String skuId, AlertLevel level) {
        return kind + "|" + (skuId == null ? "-" : skuId) + "|" + level;
    }

    /** The alert as a person reads it in a chat: level, title, SKU, detail. */
    public String text() {
        StringBuilder text = new StringBuilder("[").append(level).append("] StockGuard: ").append(title);
        if (skuId != null) {
            text.append("\nSKU: ").append(skuId);
        }
        if (!detail.isEmpty()) {
            text.append('\n').append(detail);
        }
        return text.append("\nat ").append(at).toString();
    }

    static String shorten(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}
