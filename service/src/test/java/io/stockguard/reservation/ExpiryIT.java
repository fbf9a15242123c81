package io.stockguard.reservation;

import static io.stockguard.reservation.ReservationApiIT.assertCounters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testkit.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Unconfirmed reservations give their stock back after their TTL; confirmed ones keep it. */
class ExpiryIT {

    private static RunningService service;

    @BeforeAll
    static void start() {
        service = RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                Map.of("stockguard.reservation.expiry-sweep-interval", "200ms"));
    }

    @AfterAll
    static void stop() {
        service.close();
    }

    @Test
    void unconfirmedReservationReturnsItsStockAfterItsTtlAndAConfirmedOneDoesNot() {
        StockGuardClient client = service.client();
        String sku = Ids.sku("ttl");
        client.putSku(sku, 10);
        String lapsing = Ids.order("lapsing");
        String kept = Ids.order("kept");
        assertThat(client.reserve(lapsing, 2, new Line(sku, 3)).status()).isEqualTo(201);
        assertThat(client.reserve(kept, 2, new Line(sku, 4)).status()).isEqualTo(201);
        assertThat(client.confirm(kept).status()).isEqualTo(200);
        assertCounters(client, sku, 3, 3, 4);

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> "EXPIRED".equals(client.reservation(lapsing).text("state")));

        assertCounters(client, sku, 6, 0, 4);
        assertThat(client.reservation(kept).text("state")).isEqualTo("CONFIRMED");
        assertThat(client.confirm(lapsing).code()).isEqualTo("ORDER_EXPIRED");
        assertThat(client.reserve(lapsing, 2, new Line(sku, 3)).code()).isEqualTo("ORDER_EXPIRED");
        assertThat(client.cancel(lapsing).text("state")).isEqualTo("EXPIRED");
        assertCounters(client, sku, 6, 0, 4);
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
    }

    @Test
    void confirmAfterTheTtlIsRefusedEvenBeforeTheSweeperRuns() {
        RunningService slowSweeper = RunningService.start(service.database(),
                Map.of("stockguard.reservation.expiry-sweep-interval", "10m"));
        try {
            StockGuardClient client = slowSweeper.client();
            String sku = Ids.sku("late-confirm");
            client.putSku(sku, 5);
            String order = Ids.order("late-confirm");
            Instant expiresAt = Instant.parse(client.reserve(order, 1, new Line(sku, 2)).text("expiresAt"));

            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                    .until(() -> Instant.now().isAfter(expiresAt.plusMillis(50)));

            assertThat(client.confirm(order).code()).isEqualTo("ORDER_EXPIRED");
            assertThat(client.reservation(order).text("state")).isEqualTo("EXPIRED");
            assertCounters(client, sku, 5, 0, 0);
        } finally {
            slowSweeper.close();
        }
    }
}
