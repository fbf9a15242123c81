package io.stockguard.bench.stockguard;

import io.stockguard.bench.Contender.Attempt;
import io.stockguard.bench.Contender.Outcome;

/**
 * The two calls the lean client makes on StockGuard's HTTP API and what their answers mean:
 * {@code POST /api/v1/reservations} (201 or 200 sold; a problem whose code is
 * {@code INSUFFICIENT_STOCK} sold out; anything else an error) and {@code GET /api/v1/skus/{id}}
 * (its {@code available}). {@link StockGuardClientSession} gives the client's outcomes the same
 * meanings.
 */
final class StockApi {

    static final String RESERVATIONS = "/api/v1/reservations";
    static final String SKUS = "/api/v1/skus/";
    /** A product page's stock query: {@code SKUS + sku + AVAILABILITY}. */
    static final String AVAILABILITY = "/availability";
    private static final String INSUFFICIENT_STOCK = "\"INSUFFICIENT_STOCK\"";
    private static final String AVAILABLE = "\"available\":";

    private StockApi() {
    }

    /** Writes the body of a one-line reservation into {@code json}, emptied first (sessions reuse theirs). */
    static StringBuilder reservation(StringBuilder json, String orderId, String sku, int qty) {
        json.setLength(0);
        return json.append("{\"orderId\":\"").append(orderId).append("\",\"lines\":[{\"skuId\":\"").append(sku)
                .append("\",\"qty\":").append(qty).append("}]}");
    }

    static Attempt attempt(int status, CharSequence body) {
        if (status == 201 || status == 200) {
            return Attempt.SOLD;
        }
        return indexOf(body, INSUFFICIENT_STOCK) >= 0 ? Attempt.SOLD_OUT : new Attempt(Outcome.ERROR, 0);
    }

    /** The SKU's available stock from a 200 answer (the first {@code available}: the SKU's, not a bucket's). */
    static long available(int status, CharSequence body) {
        int at = status == 200 ? indexOf(body, AVAILABLE) : -1;
        if (at < 0) {
            throw new IllegalStateException("stock query answered " + status + ": " + body);
        }
        int i = at + AVAILABLE.length();
        while (i < body.length() && body.charAt(i) == ' ') {
            i++;
        }
        long value = 0;
        int start = i;
        for (; i < body.length() && Character.isDigit(body.charAt(i)) && i - start < 18; i++) {
            value = value * 10 + (body.charAt(i) - '0');
        }
        if (i == start) {
            throw new IllegalStateException("no number after \"available\" in " + body);
        }
        return value;
    }

    private static int indexOf(CharSequence text, String word) {
        outer:
        for (int i = 0; i <= text.length() - word.length(); i++) {
            for (int j = 0; j < word.length(); j++) {
                if (text.charAt(i + j) != word.charAt(j)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
