package io.stockguard.client;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An RFC 9457 problem as the service answers every error.
 *
 * @param status the HTTP status
 * @param code the stable code to switch on; an answer that is not a StockGuard problem (a proxy's
 *     error page, say) gets {@code HTTP_<status>}
 * @param title the code's title, for people
 * @param detail what happened in this case, for people
 * @param traceId the request's trace id; quote it when reporting
 * @param fields every field of the body, code-specific ones included ({@code skuId}, {@code requested}
 *     and {@code available} for INSUFFICIENT_STOCK, {@code errors} for INVALID_REQUEST), as plain
 *     Java values
 */
public record Problem(int status, String code, String title, String detail, String traceId,
        Map<String, Object> fields) {

    public Problem {
        // A copy that keeps JSON nulls (Map.copyOf would refuse them) and the body's order.
        fields = fields == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }
}
