package io.stockguard.platform;

import java.util.Objects;

/** Who asked, and the trace id their request carries: stamped on every journal row and audit entry. */
public record Caller(Actor actor, TraceId traceId) {

    public static final Caller SYSTEM = new Caller(Actor.SYSTEM, null);

    public Caller {
        Objects.requireNonNull(actor, "actor");
    }
}
