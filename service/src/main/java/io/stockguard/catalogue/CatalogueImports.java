package io.stockguard.catalogue;

import io.stockguard.audit.AuditLog;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.ProblemCode;
import io.stockguard.hotstore.HotStore;
import io.stockguard.reservation.Reservations;
import io.stockguard.reservation.SkuCatalogue;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs catalogue imports. A request's file is first copied to disk (bounded by
 * {@code import-size-max}) and its header checked, so a wrong file is refused before any line is
 * applied; then a job applies it in batches on this instance's one import worker and records its
 * progress in the database, where any instance can read it.
 *
 * <p>A line is idempotent: it states what the SKU should be, so running an import again (after a
 * failure, or by mistake) creates nothing twice and reports the lines already applied as unchanged.
 * New SKUs of a batch are created in one transaction; a line that changes an existing SKU goes
 * through {@link Reservations#apply} like any other change, so it reaches the SKU's owner (the hot
 * store on the Redis tiers) and is refused exactly as the API would refuse it.
 */
@Service
public class CatalogueImports {

    private static final Logger log = LoggerFactory.getLogger(CatalogueImports.class);

    /** New SKUs after which an import refreshes the database's statistics. */
    private static final long STATISTICS_AFTER = 1_000;

    private final SkuCatalogue catalogue;
    private final Reservations reservations;
    private final ObjectProvider<HotStore> hotStore;
    private final ImportJobStore jobs;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final CatalogueProperties properties;
    private final Clock clock;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("stockguard-import").factory());
    /** The job this instance runs now, or null: one at a time, so two imports do not fight for the pool. */
    private final AtomicReference<String> running = new AtomicReference<>();

    CatalogueImports(SkuCatalogue catalogue, Reservations reservations, ObjectProvider<HotStore> hotStore,
            ImportJobStore jobs, AuditLog audit, TransactionTemplate transactions, CatalogueProperties properties,
            Clock clock) {
        this.catalogue = catalogue;
        this.reservations = reservations;
        this.hotStore = hotStore;
        this.jobs = jobs;
        this.audit = audit;
        this.transactions = transactions;
        this.properties = properties;
        this.clock = clock;
    }

    /**
     * Takes an import file and starts its job; returns the job as it starts. Refuses (before any
     * line is applied) a file over the size or line limits, a CSV file whose header is wrong, and
     * a second import while this instance runs one.
     */
    public ImportJob start(InputStream body, CatalogueFormat format, Caller caller) {
        String jobId = UUID.randomUUID().toString();
        if (!running.compareAndSet(null, jobId)) {
            String other = running.get();
            throw new ApiProblemException(ProblemCode.IMPORT_RUNNING, "import " + other + " is running on this "
                    + "instance; poll GET /api/v1/admin/skus:import/" + other, Map.of("jobId", String.valueOf(other)));
        }
        Path file = null;
        try {
            file = spool(body);
            long lines = dataLines(file, format, caller);
            try {
                jobs.start(jobId, format.name(), caller.actor().toString(), lines,
                        caller.traceId() == null ? null : caller.traceId().value(), clock.instant());
            } catch (DataAccessException e) {
                log.warn("import {} could not be recorded", jobId, e);
                throw new ApiProblemException(ProblemCode.UNAVAILABLE, "the database could not record the import: "
                        + "nothing was applied; send it again", Map.of(), Duration.ofSeconds(1));
            }
            Path spooled = file;
            worker.execute(() -> run(jobId, spooled, format, caller));
            file = null;
            return jobs.find(jobId).orElseThrow();
        } finally {
            if (file != null) {
                delete(file);
                running.compareAndSet(jobId, null);
            }
        }
    }

    /** Stops the worker with the service; a job cut short reads ABANDONED and can be run again. */
    @jakarta.annotation.PreDestroy
    void stop() {
        worker.shutdownNow();
    }

    /** A job as stored, with a RUNNING job whose progress stopped moving reported ABANDONED. */
    public Optional<ImportJob> job(String jobId) {
        return jobs.find(jobId).map(this::withLiveness);
    }

    public List<ImportJob> recent(int limit) {
        return jobs.recent(limit).stream().map(this::withLiveness).toList();
    }

    private ImportJob withLiveness(ImportJob job) {
        boolean stale = job.state().equals(ImportJob.RUNNING) && !job.jobId().equals(running.get())
                && job.updatedAt().plus(properties.abandonedAfter()).isBefore(clock.instant());
        if (!stale) {
            return job;
        }
        return new ImportJob(job.jobId(), ImportJob.ABANDONED, job.format(), job.startedBy(), job.startedAt(),
                job.updatedAt(), null, job.linesTotal(), job.linesDone(), job.created(), job.updated(),
                job.unchanged(), job.failed(), job.errors(), "no progress since " + job.updatedAt()
                        + ": the instance running it stopped; lines are idempotent, so run the import again",
                job.preheat(), job.traceId());
    }

    private Path spool(InputStream body) {
        long limit = properties.importSizeMax().toBytes();
        Path file;
        try {
            file = Files.createTempFile("stockguard-import-", ".part");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the import file", e);
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            byte[] buffer = new byte[64 * 1024];
            long copied = 0;
            for (int n; (n = read(body, buffer)) >= 0; ) {
                copied += n;
                if (copied > limit) {
                    throw new ApiProblemException(ProblemCode.PAYLOAD_TOO_LARGE, "an import file is limited to "
                            + properties.importSizeMax().toMegabytes() + " MB (stockguard.catalogue.import-size-max)");
                }
                out.write(buffer, 0, n);
            }
            return file;
        } catch (IOException e) {
            delete(file);
            throw new UncheckedIOException("cannot keep the import file", e);
        } catch (RuntimeException e) {
            delete(file);
            throw e;
        }
    }

    /** A body that breaks off (the client went away, a broken chunk) is the caller's to send again. */
    private static int read(InputStream body, byte[] buffer) {
        try {
            return body.read(buffer);
        } catch (IOException e) {
            throw new InvalidRequestException("body", "could not be read to its end (" + e.getMessage()
                    + "); nothing was applied");
        }
    }

    /**
     * Counts the data rows (progress is measured against them), checks a CSV header, and reads the
     * whole file once, so that one that does not parse is refused before anything is applied.
     */
    private long dataLines(Path file, CatalogueFormat format, Caller caller) {
        CatalogueFormat.Reader reader = format.reader(caller);
        long lines = 0;
        boolean headerSeen = format != CatalogueFormat.CSV;
        try (CatalogueRows rows = CatalogueRows.open(file, format)) {
            for (CatalogueRows.Row row : rows) {
                if (!headerSeen) {
                    reader.header(row);
                    headerSeen = true;
                    continue;
                }
                lines++;
            }
        }
        if (!headerSeen) {
            throw new InvalidRequestException("header", "the file is empty: a CSV import "
                    + "starts with the header line " + String.join(",", CatalogueFormat.COLUMNS));
        }
        if (lines > properties.importLinesMax()) {
            throw new InvalidRequestException("body", "holds " + lines + " lines; an import "
                    + "holds at most " + properties.importLinesMax() + " (stockguard.catalogue.import-lines-max)");
        }
        return lines;
    }

    private void run(String jobId, Path file, CatalogueFormat format, Caller caller) {
        ImportRun run = new ImportRun(jobId, caller, catalogue, reservations, hotStore.getIfAvailable() != null, jobs,
                properties, clock);
        String state = ImportJob.DONE;
        String message = null;
        String preheat = null;
        try (CatalogueRows rows = CatalogueRows.open(file, format)) {
            CatalogueFormat.Reader reader = format.reader(caller);
            for (CatalogueRows.Row row : rows) {
                if (!reader.header(row)) {
                    run.take(reader.line(row));
                }
            }
            run.finish();
            refreshStatistics(run);
            preheat = preheatIfHot(run, caller);
            log.info("import {} done: {}", jobId, run.progress().counts());
        } catch (ImportRun.StoreDown e) {
            state = ImportJob.FAILED;
            message = e.getMessage();
            log.warn("import {} stopped: {}", jobId, message);
        } catch (RuntimeException e) {
            state = ImportJob.FAILED;
            message = "stopped by an unexpected error after " + run.progress().linesDone() + " lines; the lines "
                    + "before it stand, and running the import again is safe";
            log.error("import {} failed", jobId, e);
        } finally {
            run.close();
            delete(file);
            finish(run, state, message, preheat, caller);
            running.compareAndSet(jobId, null);
        }
    }

    private void finish(ImportRun run, String state, String message, String preheat, Caller caller) {
        try {
            ImportJob.Progress progress = run.progress();
            jobs.finish(run.jobId(), state, progress, message, preheat, clock.instant());
            Map<String, Object> after = new java.util.LinkedHashMap<>(progress.counts());
            after.put("state", state);
            transactions.executeWithoutResult(status -> audit.record(caller.actor(), "SKU_IMPORT",
                    "import:" + run.jobId(), message == null ? "catalogue import" : message, null, after,
                    caller.traceId()));
        } catch (DataAccessException e) {
            log.error("import {} ended {} but its record could not be written; it will read ABANDONED", run.jobId(),
                    state, e);
        }
    }

    /** A bulk load changes the tables' sizes more than anything else does: plans should know at once. */
    private void refreshStatistics(ImportRun run) {
        if (run.progress().created() < STATISTICS_AFTER) {
            return;
        }
        try {
            catalogue.refreshStatistics();
        } catch (DataAccessException e) {
            log.warn("import {}: could not refresh the database's statistics; its next automatic analysis will",
                    run.jobId(), e);
        }
    }

    /**
     * On the Redis tiers new SKUs are sold by the database until the hot store loads them; a preheat
     * (paced, resumable) loads them all before the sale instead of on each SKU's first reservation.
     */
    private String preheatIfHot(ImportRun run, Caller caller) {
        HotStore store = hotStore.getIfAvailable();
        if (store == null || run.progress().created() == 0) {
            return null;
        }
        return store.preheat(caller).state().equals("RUNNING") ? "STARTED" : "NOT_STARTED";
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("could not delete the import file {}", file, e);
        }
    }
}
