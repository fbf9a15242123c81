package io.stockguard.audit;

import io.stockguard.platform.InvalidRequestException;
import java.time.Instant;

/** A filter over the audit log; every field is optional except the page size, which is bounded. */
public record AuditQuery(String target, String actor, String action, Instant from, Instant to, int limit) {

    public static final int LIMIT_MAX = 500;

    public AuditQuery {
        if (limit < 1 || limit > LIMIT_MAX) {
            throw new InvalidRequestException("limit", "must be between 1 and " + LIMIT_MAX);
        }
        if (from != null && to != null && from.isAfter(to)) {
            throw new InvalidRequestException("from", "must not be after 'to'");
        }
    }
}
