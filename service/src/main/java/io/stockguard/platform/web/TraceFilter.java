package io.stockguard.platform.web;

import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.TraceId;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.MDC;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every request a trace id: the caller's W3C {@code traceparent} when it sends a valid one,
 * a fresh random one otherwise. The id goes into the log context, back to the caller in
 * {@code traceparent} and {@code X-Trace-Id}, and onto every journal row the request writes.
 * Runs first, so even a refused or unauthenticated request can be found in the logs.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class TraceFilter extends OncePerRequestFilter {

    static final String MDC_KEY = "traceId";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        TraceId traceId = TraceId.fromTraceparent(request.getHeader("traceparent"));
        if (traceId == null) {
            traceId = TraceId.random();
        }
        request.setAttribute(CurrentRequest.TRACE_ID_ATTRIBUTE, traceId);
        response.setHeader("traceparent", "00-" + traceId.value() + "-" + spanId() + "-01");
        response.setHeader("X-Trace-Id", traceId.value());
        MDC.put(MDC_KEY, traceId.value());
        try {
            chain.doFilter(request, response);
        } finally {
            MDC.remove(MDC_KEY);
        }
    }

    private static String spanId() {
        byte[] bytes = new byte[8];
        ThreadLocalRandom.current().nextBytes(bytes);
        bytes[0] |= 0x01;
        return HexFormat.of().formatHex(bytes);
    }
}
