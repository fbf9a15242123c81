package io.stockguard.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.stockguard.stock.OrderId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Hypothesis 8 of the ownership audit: reservations that cannot be expired now (their order is
 * being changed, or was left half-way) must not stop expiry for everyone behind them. The sweeper
 * pages on past them and comes back to them on its next round.
 */
class ExpirySweeperTest {

    private static final Instant NOW = Instant.parse("2026-11-11T00:10:00Z");
    private static final int PAGE = 500;

    @Test
    void hypothesis8APageOfStuckReservationsDoesNotStopExpiryOfTheOnesBehindIt() {
        List<StockLedger.Due> stuck = dues("stuck", 0, PAGE);
        List<StockLedger.Due> behind = dues("behind", PAGE, 10);
        StockLedger ledger = mock(StockLedger.class);
        when(ledger.dueForExpiry(any(), isNull(), anyInt())).thenReturn(stuck);
        when(ledger.dueForExpiry(any(), any(StockLedger.Due.class), anyInt())).thenAnswer(call ->
                call.getArgument(1).equals(stuck.getLast()) ? behind : List.of());
        List<OrderId> expired = new ArrayList<>();
        when(ledger.expire(any(), any())).thenAnswer(call -> {
            OrderId order = call.getArgument(0);
            if (order.value().startsWith("stuck")) {
                return false;
            }
            expired.add(order);
            return true;
        });
        ExpirySweeper sweeper = sweeper(ledger);

        assertThat(sweeper.sweep()).as("the first page: every one stuck").isZero();
        assertThat(sweeper.sweep()).as("the next page: the ones behind").isEqualTo(10);
        assertThat(expired).extracting(OrderId::value).containsExactlyElementsOf(behind.stream()
                .map(d -> d.orderId().value()).toList());
        assertThat(sweeper.sweep()).as("a short page: the next round starts over from the first").isZero();
    }

    private static ExpirySweeper sweeper(StockLedger ledger) {
        ReservationProperties properties = new ReservationProperties(Duration.ofMinutes(15), Duration.ofSeconds(1),
                PAGE, 3, 1_000_000, new ReservationProperties.Coalescing(true, 256, 64, Duration.ofSeconds(5)),
                new ReservationProperties.Extension(true, Duration.ofHours(1)), Duration.ofMillis(50));
        return new ExpirySweeper(ledger, properties, new ThreadPoolTaskScheduler(), Clock.fixed(NOW, ZoneOffset.UTC),
                new SimpleMeterRegistry());
    }

    private static List<StockLedger.Due> dues(String prefix, int from, int count) {
        List<StockLedger.Due> dues = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            dues.add(new StockLedger.Due(NOW.minusSeconds(600).plusMillis(i), OrderId.of(prefix + "-" + i)));
        }
        return dues;
    }
}
