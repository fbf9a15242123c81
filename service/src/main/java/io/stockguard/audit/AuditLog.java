package io.stockguard.audit;

import io.stockguard.platform.Actor;
import io.stockguard.platform.TraceId;
import java.util.List;

/** Records and reads manual actions. */
public interface AuditLog {

    /**
     * Records an action inside the caller's transaction. {@code before} and {@code after} are
     * serialised to JSON; either may be null when the action created or removed something.
     */
    void record(Actor actor, String action, String target, String reason, Object before, Object after,
            TraceId traceId);

    /** Newest first. */
    List<AuditEntry> find(AuditQuery query);
}
