package io.stockguard.audit;

import java.time.Instant;

/**
 * One audited action. {@code before} and {@code after} are JSON snapshots of what the action
 * changed, so a reader at 2 a.m. sees the effect without reconstructing it.
 */
public record AuditEntry(long id, Instant at, String actor, String action, String target, String reason,
        String before, String after, String traceId) {
}
