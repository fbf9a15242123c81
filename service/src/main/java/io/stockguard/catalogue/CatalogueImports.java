package io.stockguard.catalogue;

import io.stockguard.audit.AuditLog;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.ProblemCode;
import io.stockguard.reservation.HotStore;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.Reservations;
import io.stockguard.reservation.SkuCatalogue;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.reservation.StockCommand;
import io.stockguard.stock.SkuId;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
    /** Lines answered UNAVAILABLE in a row before a job stops: the store is down, not one SKU. */
    private static final int UNAVAILABLE_IN_A_ROW_MAX = 20;

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
            Instant now = clock.instant();
            jobs.start(jobId, format.name(), caller.actor().toString(), lines,
                    caller.traceId() == null ? null : caller.traceId().value(), now);
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
        try {
            Path file = Files.createTempFile("stockguard-import-", ".part");
            try (OutputStream out = Files.newOutputStream(file)) {
                byte[] buffer = new byte[64 * 1024];
                long copied = 0;
                for (int n; (n = body.read(buffer)) >= 0; ) {
                    copied += n;
                    if (copied > limit) {
                        throw new ApiProblemException(ProblemCode.PAYLOAD_TOO_LARGE, "an import file is limited to "
                                + properties.importSizeMax().toMegabytes() + " MB (stockguard.catalogue.import-size-max)");
                    }
                    out.write(buffer, 0, n);
                }
            } catch (RuntimeException | IOException e) {
                delete(file);
                throw e;
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the import file", e);
        }
    }

    /** Counts the data lines (progress is measured against them) and checks a CSV header. */
    private long dataLines(Path file, CatalogueFormat format, Caller caller) {
        CatalogueFormat.Reader reader = format.reader(caller);
        long lines = 0;
        boolean headerSeen = format != CatalogueFormat.CSV;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String text; (text = in.readLine()) != null; ) {
                if (text.isBlank()) {
                    continue;
                }
                if (!headerSeen) {
                    reader.header(text.strip());
                    headerSeen = true;
                    continue;
                }
                lines++;
            }
        } catch (IOException e) {
            throw new io.stockguard.platform.InvalidRequestException("body", "is not UTF-8 text");
        }
        if (!headerSeen) {
            throw new io.stockguard.platform.InvalidRequestException("header", "the file is empty: a CSV import "
                    + "starts with the header line " + String.join(",", CatalogueFormat.COLUMNS));
        }
        if (lines > properties.importLinesMax()) {
            throw new io.stockguard.platform.InvalidRequestException("body", "holds " + lines + " lines; an import "
                    + "holds at most " + properties.importLinesMax() + " (stockguard.catalogue.import-lines-max)");
        }
        return lines;
    }

    private void run(String jobId, Path file, CatalogueFormat format, Caller caller) {
        Run run = new Run(jobId, caller);
        String state = ImportJob.DONE;
        String message = null;
        String preheat = null;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            CatalogueFormat.Reader reader = format.reader(caller);
            long number = 0;
            for (String text; (text = in.readLine()) != null; ) {
                number++;
                if (text.isBlank() || reader.header(text.strip())) {
                    continue;
                }
                run.take(reader.line(number, text.strip()));
            }
            run.flush();
            preheat = preheatIfHot(run, caller);
            log.info("import {} done: {} lines, {} created, {} updated, {} unchanged, {} failed", jobId,
                    run.linesDone, run.created, run.updated, run.unchanged, run.failed);
        } catch (StoreDown e) {
            state = ImportJob.FAILED;
            message = e.getMessage();
            log.warn("import {} stopped: {}", jobId, message);
        } catch (IOException | RuntimeException e) {
            state = ImportJob.FAILED;
            message = "stopped by an unexpected error after " + run.linesDone + " lines; the lines before it stand, "
                    + "and running the import again is safe";
            log.error("import {} failed", jobId, e);
        } finally {
            delete(file);
            finish(run, state, message, preheat, caller);
            running.compareAndSet(jobId, null);
        }
    }

    private void finish(Run run, String state, String message, String preheat, Caller caller) {
        try {
            Instant now = clock.instant();
            jobs.finish(run.jobId, state, run.progress(), message, preheat, now);
            transactions.executeWithoutResult(status -> audit.record(caller.actor(), "SKU_IMPORT",
                    "import:" + run.jobId, message == null ? "catalogue import" : message, null,
                    Map.of("state", state, "lines", run.linesDone, "created", run.created, "updated", run.updated,
                            "unchanged", run.unchanged, "failed", run.failed), caller.traceId()));
        } catch (DataAccessException e) {
            log.error("import {} ended {} but its record could not be written; it will read ABANDONED", run.jobId,
                    state, e);
        }
    }

    /**
     * On the Redis tiers new SKUs are sold by the database until the hot store loads them; a preheat
     * (paced, resumable) loads them all before the sale instead of on each SKU's first reservation.
     */
    private String preheatIfHot(Run run, Caller caller) {
        HotStore store = hotStore.getIfAvailable();
        if (store == null || run.created == 0) {
            return null;
        }
        return store.preheat(caller).state().equals("RUNNING") ? "STARTED" : "NOT_STARTED";
    }

    /** The progress of one job, and the batch it is filling. */
    private final class Run {

        private final String jobId;
        private final Caller caller;
        private final List<ImportLine.Valid> batch = new ArrayList<>();
        private final Set<SkuId> batchSkus = new HashSet<>();
        private final List<LineError> errors = new ArrayList<>();
        private long linesDone;
        private long created;
        private long updated;
        private long unchanged;
        private long failed;
        private int unavailableInARow;

        Run(String jobId, Caller caller) {
            this.jobId = jobId;
            this.caller = caller;
        }

        void take(ImportLine line) {
            switch (line) {
                case ImportLine.Invalid invalid -> {
                    fail(invalid.error());
                    linesDone++;
                }
                case ImportLine.Valid valid -> {
                    // A SKU named twice in one batch: its first line must be applied before its second.
                    if (batchSkus.contains(valid.upsert().skuId())) {
                        flush();
                    }
                    batch.add(valid);
                    batchSkus.add(valid.upsert().skuId());
                    if (batch.size() >= properties.batchSize()) {
                        flush();
                    }
                }
            }
        }

        void flush() {
            if (batch.isEmpty()) {
                jobs.progress(jobId, progress(), clock.instant());
                return;
            }
            SkuCatalogue.Batch created = null;
            try {
                created = catalogue.createAbsent(batch.stream().map(ImportLine.Valid::upsert).toList(), caller);
            } catch (DataAccessException e) {
                // A SKU created meanwhile by someone else, or a store failing: each line on its own.
                log.info("import {}: a batch of {} lines goes line by line ({})", jobId, batch.size(), e.toString());
            }
            boolean hot = hotStore.getIfAvailable() != null;
            for (ImportLine.Valid line : batch) {
                StockCommand.Upsert upsert = line.upsert();
                if (created != null && created.created().contains(upsert.skuId())) {
                    this.created++;
                    unavailableInARow = 0;
                } else if (created != null && !hot && created.existing().containsKey(upsert.skuId())
                        && same(created.existing().get(upsert.skuId()), upsert)) {
                    // On the database tier the database is the SKU's only store: its row is the truth.
                    unchanged++;
                    unavailableInARow = 0;
                } else {
                    one(line);
                }
                linesDone++;
            }
            batch.clear();
            batchSkus.clear();
            jobs.progress(jobId, progress(), clock.instant());
        }

        private void one(ImportLine.Valid line) {
            StockCommand.Upsert upsert = line.upsert();
            try {
                Optional<SkuStockView> now = reservations.stock(upsert.skuId());
                if (now.isPresent() && same(new SkuCatalogue.Entry(upsert.skuId(), now.get().total(),
                        now.get().bucketCount(), now.get().safetyStock()), upsert)) {
                    unchanged++;
                    unavailableInARow = 0;
                    return;
                }
                switch (reservations.apply(upsert)) {
                    case StockChangeOutcome.Changed changed -> {
                        if (changed.before() == null) {
                            created++;
                        } else {
                            updated++;
                        }
                        unavailableInARow = 0;
                    }
                    case Refusal refusal -> {
                        fail(new LineError(line.number(), upsert.skuId().value(), refusal.code().name(),
                                refusal.detail()));
                        if (refusal instanceof Refusal.Unavailable && ++unavailableInARow >= UNAVAILABLE_IN_A_ROW_MAX) {
                            throw new StoreDown(line.number());
                        }
                        if (!(refusal instanceof Refusal.Unavailable)) {
                            unavailableInARow = 0;
                        }
                    }
                }
            } catch (ApiProblemException e) {
                fail(new LineError(line.number(), upsert.skuId().value(), e.code().name(), e.getMessage()));
                unavailableInARow = 0;
            } catch (DataAccessException e) {
                fail(new LineError(line.number(), upsert.skuId().value(), ProblemCode.UNAVAILABLE.name(),
                        "the store could not be read: nothing applied"));
                if (++unavailableInARow >= UNAVAILABLE_IN_A_ROW_MAX) {
                    throw new StoreDown(line.number());
                }
            }
        }

        private void fail(LineError error) {
            failed++;
            if (errors.size() < properties.errorsKept()) {
                errors.add(error);
            }
        }

        ImportJob.Progress progress() {
            return new ImportJob.Progress(linesDone, created, updated, unchanged, failed, List.copyOf(errors));
        }
    }

    /** Whether the line asks for nothing the SKU does not already have. */
    private static boolean same(SkuCatalogue.Entry entry, StockCommand.Upsert upsert) {
        return entry.total() == upsert.total()
                && (upsert.bucketCount() == null || upsert.bucketCount() == entry.bucketCount())
                && (upsert.safetyStock() == null || upsert.safetyStock() == entry.safetyStock());
    }

    /** A job stops when its store stays down: every further line would fail the same way. */
    private static final class StoreDown extends RuntimeException {
        StoreDown(long line) {
            super("stopped at line " + line + ": the store answered UNAVAILABLE " + UNAVAILABLE_IN_A_ROW_MAX
                    + " times in a row; the lines before stand, and running the import again is safe", null, false,
                    false);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("could not delete the import file {}", file, e);
        }
    }
}
