package io.stockguard.reservation.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.reservation.BucketView;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StoredViewsTest {

    private static final SkuId SKU = SkuId.of("kept");
    private final AtomicLong now = new AtomicLong(1_000);
    private final List<SkuId> reads = new ArrayList<>();

    private StoredViews views() {
        return new StoredViews(sku -> {
            reads.add(sku);
            return sku.value().startsWith("missing") ? Optional.empty()
                    : Optional.of(SkuStockView.of(sku, SkuMode.NORMAL, null, null, null, 0,
                            List.of(new BucketView(0, 5, 0, 0)), null));
        }, now::get);
    }

    @Test
    void aSkusDetailsAreReadOnceASecond() {
        StoredViews views = views();

        views.get(SKU);
        now.addAndGet(StoredViews.FRESH.toNanos() - 1);
        views.get(SKU);
        assertThat(reads).hasSize(1);

        now.addAndGet(1);
        views.get(SKU);
        assertThat(reads).hasSize(2);
    }

    @Test
    void aForgottenSkuIsReadAgainAtOnce() {
        StoredViews views = views();
        views.get(SKU);

        views.forget(SKU);
        views.get(SKU);

        assertThat(reads).hasSize(2);
    }

    @Test
    void anUnknownSkuIsNeverKept() {
        StoredViews views = views();
        SkuId missing = SkuId.of("missing-1");

        assertThat(views.get(missing)).isEmpty();
        assertThat(views.get(missing)).isEmpty();

        assertThat(reads).containsExactly(missing, missing);
    }

    @Test
    void pastItsLimitTheKeptSkusAreDropped() {
        StoredViews views = views();
        for (int i = 0; i < StoredViews.SKUS_MAX; i++) {
            views.get(SkuId.of("sku-" + i));
        }
        views.get(SkuId.of("sku-" + StoredViews.SKUS_MAX));

        views.get(SkuId.of("sku-0"));

        assertThat(reads).hasSize(StoredViews.SKUS_MAX + 2);
    }
}
