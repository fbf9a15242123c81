package io.stockguard.catalogue;

import java.time.Instant;
import java.util.List;

/**
 * An import as anyone polling it sees it.
 *
 * @param state RUNNING, DONE (every line was tried: see {@code failed}), FAILED (stopped early:
 *     see {@code message}), or ABANDONED (RUNNING, but the instance running it stopped reporting;
 *     lines are idempotent, so run the import again)
 * @param linesTotal data lines in the file; {@code linesDone} of them have been tried
 * @param errors the first lines that failed, in file order; {@code failed} counts them all
 * @param preheat on the Redis tiers, the preheat started once the SKUs were created (STARTED),
 *     or null
 */
public record ImportJob(String jobId, String state, String format, String startedBy, Instant startedAt,
        Instant updatedAt, Instant finishedAt, long linesTotal, long linesDone, long created, long updated,
        long unchanged, long failed, List<LineError> errors, String message, String preheat, String traceId) {

    public static final String RUNNING = "RUNNING";
    public static final String DONE = "DONE";
    public static final String FAILED = "FAILED";
    public static final String ABANDONED = "ABANDONED";

    /** The counts a running job reports after each batch. */
    public record Progress(long linesDone, long created, long updated, long unchanged, long failed,
            List<LineError> errors) {

        /** The counts alone, for a log line or an audit entry. */
        public java.util.Map<String, Object> counts() {
            java.util.Map<String, Object> counts = new java.util.LinkedHashMap<>();
            counts.put("lines", linesDone);
            counts.put("created", created);
            counts.put("updated", updated);
            counts.put("unchanged", unchanged);
            counts.put("failed", failed);
            return counts;
        }
    }
}
