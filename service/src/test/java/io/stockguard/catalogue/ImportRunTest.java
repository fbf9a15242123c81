package io.stockguard.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.stockguard.platform.Actor;
import io.stockguard.platform.Caller;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.Reservations;
import io.stockguard.reservation.SkuCatalogue;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.reservation.StockCommand;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.util.unit.DataSize;

/** The import's lanes and stop rule, with the stores stubbed: pure logic of how lines are applied. */
class ImportRunTest {

    private static final Caller CALLER = new Caller(new Actor(Actor.Kind.API_KEY, "ops"), null);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T08:00:00Z"), ZoneOffset.UTC);

    @Test
    void theLinesOfOneSkuAreAppliedInFileOrderWhileLanesRunSideBySide() {
        List<String> applied = Collections.synchronizedList(new ArrayList<>());
        SkuCatalogue catalogue = new SkuCatalogue() {
            @Override
            public Batch createAbsent(List<StockCommand.Upsert> skus, Caller caller) {
                // Every SKU exists already, with a total no line asks for: each line is a change.
                Map<SkuId, Entry> existing = new HashMap<>();
                skus.forEach(u -> existing.put(u.skuId(), new Entry(u.skuId(), -1, 8, 0, null, false)));
                return new Batch(Set.of(), existing);
            }

            @Override
            public void refreshStatistics() {
            }

            @Override
            public List<Entry> page(SkuId after, int limit) {
                return List.of();
            }
        };
        Reservations reservations = mock(Reservations.class);
        when(reservations.stock(any())).thenReturn(Optional.empty());
        when(reservations.apply(any())).thenAnswer(call -> {
            StockCommand.Upsert upsert = call.getArgument(0);
            applied.add(upsert.skuId().value() + "=" + upsert.total());
            return new StockChangeOutcome.Changed(null, null, false);
        });
        ImportRun run = new ImportRun("job", CALLER, catalogue, reservations, false, new Jobs(), settings(3, 4), CLOCK);
        long line = 1;
        for (int round = 0; round < 50; round++) {
            for (int sku = 0; sku < 10; sku++) {
                run.take(new ImportLine.Valid(++line, new StockCommand.Upsert(SkuId.of("S" + sku), round, null, null,
                        CALLER)));
            }
        }
        run.finish();
        run.close();

        assertThat(applied).hasSize(500);
        for (int sku = 0; sku < 10; sku++) {
            String prefix = "S" + sku + "=";
            List<Long> totals = applied.stream().filter(a -> a.startsWith(prefix))
                    .map(a -> Long.parseLong(a.substring(prefix.length()))).toList();
            assertThat(totals).as("the totals set on S%d, in the order applied", sku).isSorted().hasSize(50);
        }
        assertThat(run.progress().created()).isEqualTo(500);
    }

    @Test
    void aStoreThatStaysDownStopsTheJobAfterTwentyLinesInARow() {
        SkuCatalogue catalogue = mock(SkuCatalogue.class);
        when(catalogue.createAbsent(any(), any())).thenThrow(new DataAccessResourceFailureException("down"));
        Reservations reservations = mock(Reservations.class);
        when(reservations.stock(any())).thenReturn(Optional.empty());
        when(reservations.apply(any())).thenReturn(new Refusal.Unavailable(false, "database unavailable"));
        ImportRun run = new ImportRun("job", CALLER, catalogue, reservations, false, new Jobs(), settings(1, 1), CLOCK);

        assertThatThrownBy(() -> {
            for (long line = 2; line < 200; line++) {
                run.take(new ImportLine.Valid(line, new StockCommand.Upsert(SkuId.of("S" + line), 1, null, null,
                        CALLER)));
            }
            run.finish();
        }).isInstanceOf(ImportRun.StoreDown.class).hasMessageContaining("stopped at line 21");
        run.close();
        ImportJob.Progress progress = run.progress();
        assertThat(progress.failed()).isEqualTo(ImportRun.UNAVAILABLE_IN_A_ROW_MAX);
        assertThat(progress.errors()).allMatch(e -> e.code().equals("UNAVAILABLE"));
        assertThat(progress.created() + progress.updated() + progress.unchanged()).isZero();
    }

    @Test
    void aRunningJobWhoseProgressStoppedIsReportedAbandoned() {
        Jobs jobs = new Jobs();
        jobs.start("stale", "CSV", "api-key:ops", 10, null, CLOCK.instant().minus(Duration.ofMinutes(5)));
        jobs.start("fresh", "CSV", "api-key:ops", 10, null, CLOCK.instant().minus(Duration.ofSeconds(30)));
        CatalogueImports imports = new CatalogueImports(mock(SkuCatalogue.class), mock(Reservations.class),
                new org.springframework.beans.factory.support.StaticListableBeanFactory()
                        .getBeanProvider(io.stockguard.hotstore.HotStore.class),
                jobs, null, null, settings(1, 1), CLOCK);

        assertThat(imports.job("stale").orElseThrow().state()).isEqualTo(ImportJob.ABANDONED);
        assertThat(imports.job("stale").orElseThrow().message()).contains("run the import again");
        assertThat(imports.job("fresh").orElseThrow().state()).isEqualTo(ImportJob.RUNNING);
    }

    private static CatalogueProperties settings(int batchSize, int parallelism) {
        return new CatalogueProperties(DataSize.ofMegabytes(1), 1_000, batchSize, parallelism, 100,
                Duration.ofMinutes(2));
    }

    /** Jobs kept in memory. */
    private static final class Jobs implements ImportJobStore {

        private final Map<String, ImportJob> jobs = new HashMap<>();

        @Override
        public void start(String jobId, String format, String startedBy, long linesTotal, String traceId,
                Instant at) {
            jobs.put(jobId, new ImportJob(jobId, ImportJob.RUNNING, format, startedBy, at, at, null, linesTotal, 0, 0,
                    0, 0, 0, List.of(), null, null, traceId));
        }

        @Override
        public void progress(String jobId, ImportJob.Progress progress, Instant at) {
        }

        @Override
        public void finish(String jobId, String state, ImportJob.Progress progress, String message, String preheat,
                Instant at) {
        }

        @Override
        public Optional<ImportJob> find(String jobId) {
            return Optional.ofNullable(jobs.get(jobId));
        }

        @Override
        public List<ImportJob> recent(int limit) {
            return List.copyOf(jobs.values());
        }
    }
}
