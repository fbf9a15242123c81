package io.stockguard.stocklevel;

import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.stockguard.platform.DutyLeases;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

class StockLevelWatcherTest {

    private final StockLevelStore store = mock(StockLevelStore.class);

    private StockLevelWatcher watcher() {
        StockLevelProperties properties = new StockLevelProperties(true, Duration.ofMillis(500),
                Duration.ofSeconds(5), List.of(), "stockguard.stock-levels", Duration.ofSeconds(1),
                Duration.ofMinutes(5), Duration.ofHours(24), Duration.ofSeconds(5));
        return new StockLevelWatcher(store, mock(DutyLeases.class), properties, () -> List.of("hook"), () -> { },
                new ThreadPoolTaskScheduler(), new SimpleMeterRegistry(),
                Clock.fixed(Instant.parse("2026-11-11T00:00:00Z"), ZoneOffset.UTC));
    }

    @Test
    void aJournalThatStartsOverBelowThePositionIsWatchedFromItsEnd() {
        when(store.position()).thenReturn(50_000L);
        when(store.changedSince(anyLong(), anyInt())).thenReturn(List.of());
        when(store.journalEnd()).thenReturn(120L);

        watcher().watch();

        verify(store).resetPosition(120L);
    }

    @Test
    void aQuietJournalLeavesThePositionWhereItIs() {
        when(store.position()).thenReturn(50_000L);
        when(store.changedSince(anyLong(), anyInt())).thenReturn(List.of());
        when(store.journalEnd()).thenReturn(50_000L);

        watcher().watch();

        verify(store, never()).resetPosition(anyLong());
        verify(store, never()).movePosition(eq(50_000L));
    }
}
