package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.reservation.BucketView;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class StoredViewsTest {

    private static final SkuId SKU = SkuId.of("kept");
    private final AtomicLong now = new AtomicLong(1_000);
    private final List<SkuId> reads = new CopyOnWriteArrayList<>();

    private StoredViews views() {
        return views(attempt -> { });
    }

    /**
     * Views over a database whose n-th read (failed ones counted) gives safety stock n;
     * {@code before} runs ahead of each read with its number.
     */
    private StoredViews views(java.util.function.IntConsumer before) {
        java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
        Function<SkuId, Optional<SkuStockView>> database = sku -> {
            int attempt = attempts.incrementAndGet();
            before.accept(attempt);
            reads.add(sku);
            return sku.value().startsWith("missing") ? Optional.empty()
                    : Optional.of(SkuStockView.of(sku, SkuMode.NORMAL, null, null, null, attempt,
                            List.of(new BucketView(0, 5, 0, 0)), null));
        };
        return new StoredViews(database, now::get);
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

    @Test
    void aStaleReadAnswersWithTheDetailsItHasWhileTheDatabaseDoesNot() throws InterruptedException {
        CountDownLatch databaseBack = new CountDownLatch(1);
        StoredViews views = views(read -> {
            if (read == 2) {
                await(databaseBack);
            }
        });
        views.get(SKU);
        now.addAndGet(StoredViews.FRESH.toNanos());

        // The database does not answer the refresh: every read meanwhile gets the details it had.
        for (int i = 0; i < 5; i++) {
            assertThat(views.get(SKU)).get().extracting(SkuStockView::safetyStock).isEqualTo(1L);
        }
        assertThat(reads).hasSize(1);

        databaseBack.countDown();
        Awaitility.await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(views.get(SKU)).get().extracting(SkuStockView::safetyStock)
                        .isEqualTo(2L));
        assertThat(reads).as("one refresh for all the reads that waited").hasSize(2);
    }

    @Test
    void aFailingDatabaseLeavesTheDetailsAsTheyWere() {
        StoredViews views = views(read -> {
            if (read == 2) {
                throw new IllegalStateException("the database is away");
            }
        });
        views.get(SKU);
        now.addAndGet(StoredViews.FRESH.toNanos());

        assertThat(views.get(SKU)).get().extracting(SkuStockView::safetyStock).isEqualTo(1L);
        assertThat(views.get(SKU)).get().extracting(SkuStockView::safetyStock).isEqualTo(3L);
    }

    @Test
    void aSkuNeverReadWaitsForTheDatabase() {
        StoredViews views = views(read -> {
            throw new IllegalStateException("the database is away");
        });

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> views.get(SKU))
                .hasMessageContaining("the database is away");
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never let the database answer");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aRefreshBegunBeforeAStockChangeDoesNotBringBackTheDetailsItReplaced() {
        CountDownLatch refreshMayAnswer = new CountDownLatch(1);
        StoredViews views = views(attempt -> {
            if (attempt == 2) {
                await(refreshMayAnswer);
            }
        });
        views.get(SKU);
        now.addAndGet(StoredViews.FRESH.toNanos());
        assertThat(views.get(SKU)).get().extracting(SkuStockView::safetyStock).as("refresh still out").isEqualTo(1L);

        now.addAndGet(1);
        views.forget(SKU);
        assertThat(views.get(SKU)).get().extracting(SkuStockView::safetyStock).as("read after the change")
                .isEqualTo(3L);
        refreshMayAnswer.countDown();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !views.refreshing(SKU));
        assertThat(reads).hasSize(3);

        assertThat(views.get(SKU)).get().extracting(SkuStockView::safetyStock)
                .as("the refresh that began before the change is not kept").isEqualTo(3L);
    }
}
