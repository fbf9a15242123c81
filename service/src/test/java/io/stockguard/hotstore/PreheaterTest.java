package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.stockguard.platform.Caller;
import io.stockguard.hotstore.HotStore;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.reservation.Ownership;
import io.stockguard.reservation.OwnershipStore;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The preheat's retries, over stand-ins for the database and Redis (its run against real ones is
 * {@code PreheatIT}): loads that time out on a busy Redis are sent again, not counted as failed.
 */
class PreheaterTest {

    private static final List<SkuId> PAGE = List.of(SkuId.of("a"), SkuId.of("b"), SkuId.of("c"));
    private static final RedisProperties.Preheat SETTINGS = new RedisProperties.Preheat(200, Duration.ZERO,
            Duration.ofMillis(100));

    private final Set<SkuId> inRedis = ConcurrentHashMap.newKeySet();
    private final Map<SkuId, Integer> timeoutsLeft = new ConcurrentHashMap<>();

    @Test
    void skusWhoseLoadsTimedOutAreSentAgainAndTheRestAreNotLoadedTwice() {
        timeoutsLeft.put(SkuId.of("b"), 2);

        HotStore.PreheatStatus done = preheat();

        assertThat(done.state()).isEqualTo("DONE");
        assertThat(done.total()).isEqualTo(3);
        assertThat(done.loaded()).isEqualTo(3);
        assertThat(done.failed()).isZero();
        assertThat(done.retries()).isEqualTo(2);
        assertThat(inRedis).containsExactlyInAnyOrderElementsOf(PAGE);
    }

    @Test
    void aRedisThatNeverTakesTheBatchStopsThePreheat() {
        PAGE.forEach(sku -> timeoutsLeft.put(sku, Integer.MAX_VALUE));

        HotStore.PreheatStatus done = preheat();

        assertThat(done.state()).isEqualTo("FAILED");
        assertThat(done.loaded()).isZero();
        assertThat(done.lastError()).contains("timed out");
    }

    private HotStore.PreheatStatus preheat() {
        HotStoreSource database = mock(HotStoreSource.class);
        when(database.page(anyString(), anyInt())).thenAnswer(call -> call.getArgument(0, String.class).isEmpty()
                ? PAGE : List.of());
        HotStockLoader loader = mock(HotStockLoader.class);
        when(loader.send(any())).thenAnswer(call -> {
            OwnershipStore.HotSource source = call.getArgument(0);
            if (timeoutsLeft.merge(source.skuId(), -1, Integer::sum) >= 0) {
                return CompletableFuture.failedFuture(new IllegalStateException("EVALSHA timed out"));
            }
            inRedis.add(source.skuId());
            return CompletableFuture.completedFuture(HotStockLoader.Loaded.LOADED);
        });
        OwnershipStore owners = mock(OwnershipStore.class);
        when(owners.load(any(), any(), any(), any())).thenAnswer(call -> {
            List<SkuId> skus = new ArrayList<>(call.getArgument(0));
            Function<List<OwnershipStore.HotSource>, Set<SkuId>> intoHotStore = call.getArgument(3);
            List<OwnershipStore.HotSource> sources = skus.stream().filter(sku -> !inRedis.contains(sku))
                    .map(sku -> new OwnershipStore.HotSource(sku, 1, SkuMode.NORMAL, 0, 1, List.of(), 0, Map.of()))
                    .toList();
            Set<SkuId> loaded = new HashSet<>(intoHotStore.apply(sources));
            return skus.stream().map(sku -> new OwnershipStore.Loaded(sku, loaded.contains(sku)
                    ? new Ownership.Database(0, null) : inRedis.contains(sku) ? new Ownership.Hot(1)
                    : new Ownership.Database(0, null), loaded.contains(sku))).toList();
        });
        Preheater preheater = new Preheater(loader, database, owners, SETTINGS, Clock.systemUTC());
        preheater.start(Caller.SYSTEM);
        Awaitility.await().atMost(Duration.ofMinutes(1))
                .until(() -> !preheater.status().state().equals("RUNNING"));
        return preheater.status();
    }
}
