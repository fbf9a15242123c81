package io.stockguard.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.stockguard.journal.JournalProgress;
import io.stockguard.hotstore.HotStore;
import io.stockguard.reservation.Reservations;
import io.stockguard.reservation.SkuCatalogue;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/** Where an export takes a SKU's total from: the database once the journal is applied, else Redis. */
class CatalogueExportTest {

    private static final SkuId HOT = SkuId.of("HOT-1");
    private static final SkuId QUIET = SkuId.of("QUIET-1");

    @Test
    void whileTheJournalIsBehindSkusRedisSellsAreReadFromRedis() throws Exception {
        Reservations reservations = reservationsWithRedisTotal(57);
        String csv = export(reservations, false);

        assertThat(csv).isEqualTo("sku,total,buckets,safetyStock,lowStockThreshold,limitPerCustomer\n"
                + "HOT-1,57,2,0,,0\nQUIET-1,9,8,1,,0\n");
        verify(reservations, never()).stock(QUIET);
    }

    @Test
    void onceTheJournalIsAppliedTheDatabaseAnswersAlone() throws Exception {
        Reservations reservations = reservationsWithRedisTotal(57);
        String csv = export(reservations, true);

        assertThat(csv).isEqualTo("sku,total,buckets,safetyStock,lowStockThreshold,limitPerCustomer\n"
                + "HOT-1,50,2,0,,0\nQUIET-1,9,8,1,,0\n");
        verify(reservations, never()).stock(any());
    }

    private static String export(Reservations reservations, boolean journalApplied) throws Exception {
        SkuCatalogue catalogue = mock(SkuCatalogue.class);
        when(catalogue.page(isNull(), anyInt()))
                .thenReturn(List.of(new SkuCatalogue.Entry(HOT, 50, 2, 0, null, true),
                        new SkuCatalogue.Entry(QUIET, 9, 8, 1, null, false)));
        JournalProgress journal = mock(JournalProgress.class);
        when(journal.awaitAllApplied(any())).thenReturn(journalApplied);
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        beans.addBean("hotStore", mock(HotStore.class));
        StringWriter out = new StringWriter();
        new CatalogueExport(catalogue, reservations, beans.getBeanProvider(HotStore.class), journal)
                .write(CatalogueFormat.CSV, out);
        return out.toString();
    }

    private static Reservations reservationsWithRedisTotal(long total) {
        Reservations reservations = mock(Reservations.class);
        when(reservations.stock(HOT)).thenReturn(Optional.of(new SkuStockView(HOT, total, total, 0, 0, SkuMode.NORMAL,
                null, null, null, 0, 2, List.of(), null)));
        return reservations;
    }
}
