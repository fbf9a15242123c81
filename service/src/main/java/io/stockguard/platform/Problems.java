package io.stockguard.platform;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.ProblemDetail;

/** Builds RFC 9457 problem bodies that always carry a stable {@code code} and the trace id. */
public final class Problems {

    private Problems() {
    }

    public static ProblemDetail of(ProblemCode code, String detail, TraceId traceId) {
        return of(code, detail, traceId, Map.of());
    }

    public static ProblemDetail of(ProblemCode code, String detail, TraceId traceId, Map<String, Object> properties) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(code.status(), detail);
        problem.setType(typeOf(code));
        problem.setTitle(code.title());
        problem.setProperty("code", code.name());
        if (traceId != null) {
            problem.setProperty("traceId", traceId.value());
        }
        properties.forEach(problem::setProperty);
        return problem;
    }

    /** A relative type URI per code; the service documents each code under {@code /problems/}. */
    public static URI typeOf(ProblemCode code) {
        return URI.create("/problems/" + code.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }
}
