package io.stockguard.catalogue;

import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.ProblemCode;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.Reservations;
import io.stockguard.reservation.SkuCatalogue;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.reservation.StockCommand;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * One import job applying its lines. Lines are spread over lanes by SKU: each lane applies its
 * batches one after the other, so the lines of one SKU are applied in file order, while lanes run
 * side by side (the database's work per new SKU, its rows and their index entries, is what an
 * import waits for, and one connection leaves the other cores idle).
 */
final class ImportRun implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ImportRun.class);
    /** Lines answered UNAVAILABLE in a row before a job stops: the store is down, not one SKU. */
    static final int UNAVAILABLE_IN_A_ROW_MAX = 20;
    /** Batches a lane may have waiting: bounds the memory a fast reader can fill. */
    private static final int BATCHES_WAITING_MAX = 2;

    private final String jobId;
    private final Caller caller;
    private final SkuCatalogue catalogue;
    private final Reservations reservations;
    private final boolean hotTier;
    private final ImportJobStore jobs;
    private final CatalogueProperties properties;
    private final Clock clock;
    private final List<Lane> lanes = new ArrayList<>();
    /** The first failure that stops the job; later batches are not applied. */
    private final AtomicReference<RuntimeException> stopped = new AtomicReference<>();

    // Guarded by this.
    private final List<LineError> errors = new ArrayList<>();
    private long linesDone;
    private long created;
    private long updated;
    private long unchanged;
    private long failed;

    ImportRun(String jobId, Caller caller, SkuCatalogue catalogue, Reservations reservations, boolean hotTier,
            ImportJobStore jobs, CatalogueProperties properties, Clock clock) {
        this.jobId = jobId;
        this.caller = caller;
        this.catalogue = catalogue;
        this.reservations = reservations;
        this.hotTier = hotTier;
        this.jobs = jobs;
        this.properties = properties;
        this.clock = clock;
        for (int i = 0; i < properties.parallelism(); i++) {
            lanes.add(new Lane(i));
        }
    }

    String jobId() {
        return jobId;
    }

    /** Takes the next line of the file; throws the failure that stopped the job, if one did. */
    void take(ImportLine line) {
        throwIfStopped();
        switch (line) {
            case ImportLine.Invalid invalid -> {
                synchronized (this) {
                    fail(invalid.error());
                    linesDone++;
                }
            }
            case ImportLine.Valid valid -> lanes.get(Math.floorMod(valid.upsert().skuId().hashCode(), lanes.size()))
                    .add(valid);
        }
    }

    /** Applies what the lanes still hold and waits for them; throws what stopped the job, if anything did. */
    void finish() {
        for (Lane lane : lanes) {
            lane.submit();
        }
        for (Lane lane : lanes) {
            lane.drain();
        }
        throwIfStopped();
        record();
    }

    @Override
    public void close() {
        lanes.forEach(lane -> lane.executor.shutdownNow());
    }

    synchronized ImportJob.Progress progress() {
        List<LineError> sorted = new ArrayList<>(errors);
        sorted.sort(Comparator.comparingLong(LineError::line));
        return new ImportJob.Progress(linesDone, created, updated, unchanged, failed, sorted);
    }

    private void throwIfStopped() {
        RuntimeException failure = stopped.get();
        if (failure != null) {
            throw failure;
        }
    }

    /** Records the progress; under the lock, so a later count never lands before an earlier one. */
    private synchronized void record() {
        jobs.progress(jobId, progress(), clock.instant());
    }

    private synchronized void count(Outcome outcome) {
        linesDone++;
        switch (outcome) {
            case CREATED -> created++;
            case UPDATED -> updated++;
            case UNCHANGED -> unchanged++;
            case FAILED -> {
                // counted by fail()
            }
        }
    }

    /** Call with the lock held. */
    private void fail(LineError error) {
        failed++;
        if (errors.size() < properties.errorsKept()) {
            errors.add(error);
        }
    }

    private enum Outcome { CREATED, UPDATED, UNCHANGED, FAILED }

    /** The SKUs of one hash range: their batches, applied in order on one thread. */
    private final class Lane {

        private final ExecutorService executor;
        private final Semaphore waiting = new Semaphore(BATCHES_WAITING_MAX);
        private List<ImportLine.Valid> batch = new ArrayList<>();
        private final Set<SkuId> batchSkus = new HashSet<>();
        private int unavailableInARow;

        Lane(int number) {
            executor = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon()
                    .name("stockguard-import-" + number).factory());
        }

        void add(ImportLine.Valid line) {
            // A SKU named twice in one batch: its first line must be applied before its second.
            if (batchSkus.contains(line.upsert().skuId())) {
                submit();
            }
            batch.add(line);
            batchSkus.add(line.upsert().skuId());
            if (batch.size() >= properties.batchSize()) {
                submit();
            }
        }

        void submit() {
            if (batch.isEmpty()) {
                return;
            }
            List<ImportLine.Valid> lines = batch;
            batch = new ArrayList<>();
            batchSkus.clear();
            try {
                waiting.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while handing a batch over", e);
            }
            executor.execute(() -> {
                try {
                    if (stopped.get() == null) {
                        apply(lines);
                        record();
                    }
                } catch (RuntimeException e) {
                    stopped.compareAndSet(null, e);
                } finally {
                    waiting.release();
                }
            });
        }

        void drain() {
            try {
                waiting.acquire(BATCHES_WAITING_MAX);
                waiting.release(BATCHES_WAITING_MAX);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the import's batches", e);
            }
        }

        private void apply(List<ImportLine.Valid> lines) {
            SkuCatalogue.Batch batch = null;
            try {
                batch = catalogue.createAbsent(lines.stream().map(ImportLine.Valid::upsert).toList(), caller);
            } catch (DataAccessException e) {
                // A SKU created meanwhile by someone else, or a store failing: each line on its own.
                log.info("import {}: a batch of {} lines goes line by line ({})", jobId, lines.size(), e.toString());
            }
            for (ImportLine.Valid line : lines) {
                StockCommand.Upsert upsert = line.upsert();
                if (batch != null && batch.created().contains(upsert.skuId())) {
                    count(Outcome.CREATED);
                    unavailableInARow = 0;
                } else if (batch != null && !hotTier && batch.existing().containsKey(upsert.skuId())
                        && same(batch.existing().get(upsert.skuId()), upsert)) {
                    // On the database tier the database is the SKU's only store: its row is the truth.
                    count(Outcome.UNCHANGED);
                    unavailableInARow = 0;
                } else {
                    count(one(line));
                }
            }
        }

        private Outcome one(ImportLine.Valid line) {
            StockCommand.Upsert upsert = line.upsert();
            try {
                Optional<SkuStockView> now = reservations.stock(upsert.skuId());
                if (now.isPresent() && same(CatalogueExport.entry(now.get()), upsert)) {
                    unavailableInARow = 0;
                    return Outcome.UNCHANGED;
                }
                return switch (reservations.apply(upsert)) {
                    case StockChangeOutcome.Changed changed -> {
                        unavailableInARow = 0;
                        yield changed.before() == null ? Outcome.CREATED : Outcome.UPDATED;
                    }
                    case Refusal refusal -> {
                        failed(line, refusal.code().name(), refusal.detail(), refusal instanceof Refusal.Unavailable);
                        yield Outcome.FAILED;
                    }
                };
            } catch (ApiProblemException e) {
                failed(line, e.code().name(), e.getMessage(), false);
                return Outcome.FAILED;
            } catch (DataAccessException e) {
                failed(line, ProblemCode.UNAVAILABLE.name(), "the store could not be read: nothing applied", true);
                return Outcome.FAILED;
            }
        }

        private void failed(ImportLine.Valid line, String code, String message, boolean unavailable) {
            synchronized (ImportRun.this) {
                fail(new LineError(line.number(), line.upsert().skuId().value(), code, message));
            }
            unavailableInARow = unavailable ? unavailableInARow + 1 : 0;
            if (unavailableInARow >= UNAVAILABLE_IN_A_ROW_MAX) {
                synchronized (ImportRun.this) {
                    linesDone++;
                }
                throw new StoreDown(line.number());
            }
        }
    }

    /** Whether the line asks for nothing the SKU does not already have. */
    static boolean same(SkuCatalogue.Entry entry, StockCommand.Upsert upsert) {
        return entry.total() == upsert.total()
                && (upsert.bucketCount() == null || upsert.bucketCount() == entry.bucketCount())
                && (upsert.safetyStock() == null || upsert.safetyStock() == entry.safetyStock())
                && (upsert.limitPerCustomer() == null
                        || upsert.limitPerCustomer() == entry.terms().limitOrZero())
                && (upsert.lowStockThreshold() == null
                        || upsert.lowStockThreshold().equals(entry.terms().lowStockThreshold()));
    }

    /** A job stops when its store stays down: every further line would fail the same way. */
    static final class StoreDown extends RuntimeException {
        StoreDown(long line) {
            super("stopped at line " + line + ": the store answered UNAVAILABLE " + UNAVAILABLE_IN_A_ROW_MAX
                    + " times in a row; the lines before stand, and running the import again is safe", null, false,
                    false);
        }
    }
}
