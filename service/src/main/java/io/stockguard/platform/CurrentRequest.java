package io.stockguard.platform;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/** What the edge knows about the request being served: its trace id and who sent it. */
public final class CurrentRequest {

    /** Request attribute under which the trace filter stores the {@link TraceId}. */
    public static final String TRACE_ID_ATTRIBUTE = CurrentRequest.class.getName() + ".traceId";

    private CurrentRequest() {
    }

    public static TraceId traceId(HttpServletRequest request) {
        Object value = request.getAttribute(TRACE_ID_ATTRIBUTE);
        return value instanceof TraceId traceId ? traceId : null;
    }

    /** The authenticated caller; every changing endpoint sits behind authentication, so there is one. */
    public static Actor actor() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null && authentication.getPrincipal() instanceof Actor actor) {
            return actor;
        }
        throw new IllegalStateException("no authenticated actor on this request");
    }

    /** Who sent the request and its trace id: what every change carries into the journal and the audit log. */
    public static Caller caller(HttpServletRequest request) {
        return new Caller(actor(), traceId(request));
    }
}
