package io.stockguard.platform;

import java.time.Duration;
import java.util.Map;

/**
 * A refusal that crosses the HTTP edge as an RFC 9457 problem with a stable {@link ProblemCode}.
 * Domain outcomes are values; this exception is only for input that never reached the domain.
 */
public class ApiProblemException extends RuntimeException {

    private final ProblemCode code;
    private final Map<String, Object> properties;
    private final Duration retryAfter;

    public ApiProblemException(ProblemCode code, String detail) {
        this(code, detail, Map.of());
    }

    public ApiProblemException(ProblemCode code, String detail, Map<String, Object> properties) {
        this(code, detail, properties, null);
    }

    /** @param retryAfter when the caller may usefully retry; sent as {@code Retry-After}, may be null */
    public ApiProblemException(ProblemCode code, String detail, Map<String, Object> properties, Duration retryAfter) {
        super(detail, null, false, false);
        this.code = code;
        this.properties = Map.copyOf(properties);
        this.retryAfter = retryAfter;
    }

    /** The one way every endpoint says a SKU does not exist: 404 UNKNOWN_SKU naming it. */
    public static ApiProblemException unknownSku(String skuId) {
        return new ApiProblemException(ProblemCode.UNKNOWN_SKU, "SKU " + skuId + " does not exist",
                Map.of("skuId", skuId));
    }

    /**
     * A wait as the whole seconds the {@code Retry-After} header carries: rounded up, at least 1
     * (the header has no fractions, and 0 would invite a retry storm).
     */
    public static long retryAfterSeconds(Duration wait) {
        return Math.max(1, (wait.toMillis() + 999) / 1000);
    }

    public ProblemCode code() {
        return code;
    }

    public Map<String, Object> properties() {
        return properties;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
