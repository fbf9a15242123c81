package io.stockguard.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The product page's view on a clock the test moves: what it answers from a read and when it reads
 * the store again. The store is a map the test changes (the store itself is tested elsewhere).
 */
class AvailabilityReadsTest {

    private static final Duration MAX_AGE = Duration.ofMillis(50);
    private static final SkuId SKU = SkuId.of("PAGE-1");
    /** Longer than any test waits: a query that waits for a read it must not share never finishes in time. */
    private static final Duration SHARE_WAIT = Duration.ofMinutes(5);

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final ConcurrentHashMap<SkuId, Long> stock = new ConcurrentHashMap<>();
    private final AtomicInteger storeReads = new AtomicInteger();
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile CompletableFuture<Optional<SkuStockView>> blocked;

    private final Function<SkuId, Optional<SkuStockView>> store = sku -> {
        storeReads.incrementAndGet();
        Long available = stock.get(sku);
        return Optional.ofNullable(available).map(units -> view(sku, units));
    };

    @AfterEach
    void release() {
        released.countDown();
    }

    @Test
    void aQueryWithinMaxAgeOfARead_isAnsweredFromIt_andOneAfterReadsTheStoreAgain() {
        AvailabilityReads reads = new AvailabilityReads(store, MAX_AGE, meters, nanos::get, SHARE_WAIT);
        stock.put(SKU, 10L);
        assertThat(available(reads)).isEqualTo(10);
        stock.put(SKU, 0L); // sold out through another instance

        advance(MAX_AGE);
        assertThat(available(reads)).as("at maxAge since the read began: still that read").isEqualTo(10);
        assertThat(storeReads).hasValue(1);

        advance(Duration.ofNanos(1));
        assertThat(available(reads)).as("past maxAge: the store again, sold out").isZero();
        assertThat(storeReads).hasValue(2);
        assertThat(answered("kept")).isEqualTo(1);
        assertThat(answered("store")).isEqualTo(2);
    }

    @Test
    void aChangeThroughThisInstance_isSeenByTheNextQuery_withinMaxAge() {
        AvailabilityReads reads = new AvailabilityReads(store, MAX_AGE, meters, nanos::get, SHARE_WAIT);
        stock.put(SKU, 10L);
        SkuId other = SkuId.of("PAGE-2");
        stock.put(other, 5L);
        available(reads);
        reads.get(other);

        stock.put(SKU, 9L);
        reads.changed(List.of(SKU));

        assertThat(available(reads)).isEqualTo(9);
        assertThat(reads.get(other).orElseThrow().available()).as("another SKU's read is still fresh").isEqualTo(5);
        assertThat(storeReads).hasValue(3);
        assertThat(available(reads)).as("the read after the change is kept").isEqualTo(9);
        assertThat(storeReads).hasValue(3);
    }

    @Test
    void aReadThatBeganBeforeAChange_isNotKeptAfterIt() {
        AvailabilityReads[] reads = new AvailabilityReads[1];
        // The change lands while the read is under way: the read may or may not have seen it.
        reads[0] = new AvailabilityReads(sku -> {
            Optional<SkuStockView> found = store.apply(sku);
            if (storeReads.get() == 1) {
                stock.put(SKU, 9L);
                reads[0].changed(List.of(SKU));
            }
            return found;
        }, MAX_AGE, meters, nanos::get, SHARE_WAIT);
        stock.put(SKU, 10L);

        assertThat(available(reads[0])).as("the query that read before the change").isEqualTo(10);
        assertThat(available(reads[0])).as("the next query reads again").isEqualTo(9);
        assertThat(storeReads).hasValue(2);
    }

    @Test
    void queriesArrivingWhileAFreshReadIsUnderWay_shareIt() throws Exception {
        AvailabilityReads reads = new AvailabilityReads(blockingFirstRead(), MAX_AGE, meters, nanos::get, SHARE_WAIT);
        stock.put(SKU, 10L);
        CompletableFuture<Long> first = query(reads);
        await().atMost(Duration.ofSeconds(10)).until(() -> blocked != null);
        CompletableFuture<Long> second = new CompletableFuture<>();
        Thread sharer = Thread.ofPlatform().daemon().start(() -> second.complete(available(reads)));
        await().atMost(Duration.ofSeconds(10)).until(() -> sharer.getState() == Thread.State.TIMED_WAITING);

        released.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(10);
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(10);
        assertThat(storeReads).as("one store read for both").hasValue(1);
        assertThat(answered("shared")).isEqualTo(1);
        assertThat(answered("store")).isEqualTo(1);
    }

    @Test
    void aQueryAfterAChange_doesNotShareAReadThatBeganBeforeIt() throws Exception {
        AvailabilityReads reads = new AvailabilityReads(blockingFirstRead(), MAX_AGE, meters, nanos::get, SHARE_WAIT);
        stock.put(SKU, 10L);
        CompletableFuture<Long> first = query(reads);
        await().atMost(Duration.ofSeconds(10)).until(() -> blocked != null);

        stock.put(SKU, 9L);
        reads.changed(List.of(SKU));
        CompletableFuture<Long> after = query(reads);
        assertThat(after.get(10, TimeUnit.SECONDS)).as("read for itself, while the older read is still under way")
                .isEqualTo(9);
        assertThat(first).isNotDone();

        released.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(10);
        assertThat(available(reads)).as("the older read, finished last, is not kept over the newer").isEqualTo(9);
        assertThat(storeReads).hasValue(2);
    }

    @Test
    void aSharedReadThatFails_leavesEachQueryToReadForItself() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch failing = new CountDownLatch(1);
        AvailabilityReads reads = new AvailabilityReads(sku -> {
            if (calls.incrementAndGet() == 1) {
                failing.countDown();
                awaitReleased(released);
                throw new IllegalStateException("the store went away");
            }
            return store.apply(sku);
        }, MAX_AGE, meters, nanos::get, SHARE_WAIT);
        stock.put(SKU, 10L);
        CompletableFuture<Long> first = query(reads);
        awaitReleased(failing);
        CompletableFuture<Long> second = new CompletableFuture<>();
        Thread sharer = Thread.ofPlatform().daemon().start(() -> second.complete(available(reads)));
        await().atMost(Duration.ofSeconds(10)).until(() -> sharer.getState() == Thread.State.TIMED_WAITING);

        released.countDown();
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(10);
        assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS)).hasRootCauseMessage("the store went away");
    }

    @Test
    void anUnknownSku_isRemembered_untilItIsCreatedThroughThisInstance() {
        AvailabilityReads reads = new AvailabilityReads(store, MAX_AGE, meters, nanos::get, SHARE_WAIT);
        assertThat(reads.get(SKU)).isEmpty();
        assertThat(reads.get(SKU)).isEmpty();
        assertThat(storeReads).hasValue(1);

        stock.put(SKU, 3L);
        reads.changed(List.of(SKU));
        assertThat(available(reads)).isEqualTo(3);
    }

    @Test
    void aChangeOfUnknownSkus_forgetsEveryRead() {
        AvailabilityReads reads = new AvailabilityReads(store, MAX_AGE, meters, nanos::get, SHARE_WAIT);
        stock.put(SKU, 10L);
        available(reads);
        stock.put(SKU, 8L);
        reads.changedAll();
        assertThat(available(reads)).isEqualTo(8);
        assertThat(storeReads).hasValue(2);
    }

    @Test
    void maxAgeZero_readsTheStoreForEveryQuery() {
        AvailabilityReads reads = new AvailabilityReads(store, Duration.ZERO, meters, nanos::get, SHARE_WAIT);
        stock.put(SKU, 10L);
        available(reads);
        advance(Duration.ofNanos(1));
        available(reads);
        assertThat(storeReads).hasValue(2);
    }

    @Test
    void pastTheBoundOnSkusKept_everythingIsForgotten() {
        AvailabilityReads reads = new AvailabilityReads(store, MAX_AGE, meters, nanos::get, SHARE_WAIT);
        stock.put(SKU, 10L);
        available(reads);
        for (int i = 0; i < AvailabilityReads.SKUS_MAX; i++) {
            reads.get(SkuId.of("CRAWL-" + i));
        }
        int before = storeReads.get();
        available(reads);
        assertThat(storeReads).as("the first SKU was forgotten with the rest").hasValue(before + 1);
    }

    @Test
    void aNegativeMaxAge_isRefused() {
        assertThatThrownBy(() -> new AvailabilityReads(store, Duration.ofMillis(-1), meters))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theSetting_isBetweenZeroAndOneSecond() {
        assertThatThrownBy(() -> properties(Duration.ofMillis(1_001)))
                .hasMessageContaining("stockguard.reservation.availability-max-age");
        assertThatThrownBy(() -> properties(Duration.ofMillis(-1)))
                .hasMessageContaining("stockguard.reservation.availability-max-age");
        assertThat(properties(Duration.ZERO).availabilityMaxAge()).isZero();
        assertThat(properties(Duration.ofSeconds(1)).availabilityMaxAge()).hasSeconds(1);
    }

    private static ReservationProperties properties(Duration availabilityMaxAge) {
        return new ReservationProperties(Duration.ofMinutes(15), Duration.ofSeconds(1), 500, 3, 1_000_000,
                new ReservationProperties.Coalescing(true, 256, 4, Duration.ofSeconds(5)),
                new ReservationProperties.Extension(true, Duration.ofHours(1)), availabilityMaxAge);
    }

    /** The store with its first read held until the test releases it. */
    private Function<SkuId, Optional<SkuStockView>> blockingFirstRead() {
        return sku -> {
            Optional<SkuStockView> found = store.apply(sku);
            if (storeReads.get() == 1) {
                blocked = CompletableFuture.completedFuture(found);
                awaitReleased(released);
            }
            return found;
        };
    }

    private static void awaitReleased(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("not released within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A query on a thread of its own (the common pool may have one thread, held by a blocked read). */
    private CompletableFuture<Long> query(AvailabilityReads reads) {
        CompletableFuture<Long> answer = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                answer.complete(available(reads));
            } catch (RuntimeException e) {
                answer.completeExceptionally(e);
            }
        });
        return answer;
    }

    private double answered(String from) {
        return meters.get("stockguard.availability.queries").tag("from", from).counter().count();
    }

    private long available(AvailabilityReads reads) {
        return reads.get(SKU).orElseThrow().available();
    }

    private void advance(Duration by) {
        nanos.addAndGet(by.toNanos());
    }

    private static SkuStockView view(SkuId sku, long available) {
        return SkuStockView.of(sku, SkuMode.NORMAL, null, null, null, 0,
                List.of(new BucketView(0, available, 0, 0)), SkuTerms.NONE);
    }
}
