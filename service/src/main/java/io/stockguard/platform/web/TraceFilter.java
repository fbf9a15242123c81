package io.stockguard.platform.web;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.TraceId;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.slf4j.MDC;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every request a trace id: the caller's W3C {@code traceparent} when it sends a valid one,
 * a fresh random one otherwise. The id goes into the log context, back to the caller in
 * {@code traceparent} and {@code X-Trace-Id}, and onto every journal row the request writes.
 *
 * <p>With tracing present (Micrometer Tracing, see docs/operations.md "Tracing"), the id is the
 * trace id of the request's server span, read here rather than decided here: Spring MVC's
 * observation filter runs just before this one ({@code HIGHEST_PRECEDENCE + 1}), has already taken
 * the caller's {@code traceparent} (W3C propagation) or started a new trace, and put the span in
 * scope. Reading it, rather than seeding the tracer with an id of our own, leaves one decision
 * about the trace id, the tracer's, so the spans, the log context (which the tracer also fills with
 * {@code traceId} whenever a span comes into scope) and the journal rows can never disagree. The
 * tracer makes the same choice as before: the caller's id when its {@code traceparent} is valid, a
 * random one otherwise; the span, and so the id, exists even when nothing is recorded or exported.
 * One difference, for malformed headers only: the tracer reads {@code traceparent} strictly to the
 * W3C layout, so a header whose parent span id is all zeros or whose fields have the wrong length
 * (which {@link TraceId#fromTraceparent} let through for its trace id) starts a new trace, as the
 * W3C recommendation says it must. Without a current span (tracing absent, or the HTTP server
 * observation switched off) the id is decided here the way it always was.
 *
 * <p>Runs right after the observation filter and before everything else, security included, so
 * even a refused or unauthenticated request can be found in the logs.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 2)
class TraceFilter extends OncePerRequestFilter {

    static final String MDC_KEY = "traceId";
    private static final Pattern SPAN_ID = Pattern.compile("[0-9a-f]{16}");

    private final ObjectProvider<Tracer> tracers;
    /** Resolved on first use; {@link Tracer#NOOP} when there is none. */
    private volatile Tracer tracer;

    TraceFilter(ObjectProvider<Tracer> tracers) {
        this.tracers = tracers;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Span span = tracer().currentSpan();
        // Null for a no-op tracer, whose span has an empty id.
        TraceId traceId = span == null ? null : TraceId.parse(span.context().traceId());
        String spanId;
        if (traceId != null) {
            String current = span.context().spanId();
            spanId = SPAN_ID.matcher(current).matches() ? current : randomSpanId();
        } else {
            traceId = TraceId.fromTraceparent(request.getHeader("traceparent"));
            if (traceId == null) {
                traceId = TraceId.random();
            }
            spanId = randomSpanId();
        }
        request.setAttribute(CurrentRequest.TRACE_ID_ATTRIBUTE, traceId);
        // Always flagged sampled, as before tracing: the header tells the caller the ids, not
        // whether this service records the trace.
        response.setHeader("traceparent", "00-" + traceId.value() + "-" + spanId + "-01");
        response.setHeader("X-Trace-Id", traceId.value());
        MDC.put(MDC_KEY, traceId.value());
        try {
            chain.doFilter(request, response);
        } finally {
            MDC.remove(MDC_KEY);
        }
    }

    private Tracer tracer() {
        Tracer current = tracer;
        if (current == null) {
            current = tracers.getIfAvailable(() -> Tracer.NOOP);
            tracer = current;
        }
        return current;
    }

    private static String randomSpanId() {
        byte[] bytes = new byte[8];
        ThreadLocalRandom.current().nextBytes(bytes);
        bytes[0] |= 0x01;
        return HexFormat.of().formatHex(bytes);
    }
}
