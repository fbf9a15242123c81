package io.stockguard.catalogue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Where import jobs are kept: shared by every instance, so any of them can report on any job. */
public interface ImportJobStore {

    void start(String jobId, String format, String startedBy, long linesTotal, String traceId, Instant at);

    /** Records a running job's progress; it is also the job's heartbeat. */
    void progress(String jobId, ImportJob.Progress progress, Instant at);

    void finish(String jobId, String state, ImportJob.Progress progress, String message, String preheat, Instant at);

    /** The job as stored: a RUNNING job is reported as is, whatever its heartbeat. */
    Optional<ImportJob> find(String jobId);

    /** The newest jobs first. */
    List<ImportJob> recent(int limit);
}
