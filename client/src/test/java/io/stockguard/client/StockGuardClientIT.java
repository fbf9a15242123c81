package io.stockguard.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.client.FaultyGateway.Fault;
import io.stockguard.client.FaultyGateway.Passed;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client against a real StockGuard (the embedded tier, as a process), through a gateway that
 * loses or spoils answers after the service applied the request: the client's retry under the same
 * order id gets the service's replay, the stock is held once, and a cancel returns it.
 */
class StockGuardClientIT {

    private static RunningStockGuard service;
    private static FaultyGateway gateway;
    private static StockGuardClient client;

    @BeforeAll
    static void start() {
        service = RunningStockGuard.start();
        gateway = new FaultyGateway(service.baseUrl());
        client = StockGuardClient.builder(gateway.baseUrl(), RunningStockGuard.API_KEY)
                .retryPolicy(new RetryPolicy(5, Duration.ofSeconds(20), Duration.ofMillis(50), Duration.ofMillis(500)))
                .requestTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (service != null) {
            service.close();
        }
    }

    private static void createSku(String sku, long total) {
        assertThat(service.send("PUT", "/api/v1/skus/" + sku, "{\"total\": " + total + "}").statusCode())
                .isEqualTo(201);
    }

    private static Stock stock(String sku) {
        return (Stock) client.stock(sku);
    }

    @Test
    void aReservationWhoseAnswerWasLostIsReplayedOnTheRetryHeldOnceAndCancelled() {
        String sku = "CLIENT-IT-LOST-1";
        createSku(sku, 10);
        gateway.spoilNext("POST", "/api/v1/reservations", Fault.LOSE_ANSWER);

        ReserveOutcome outcome = client.reserve("client-it-order-1", List.of(Line.of(sku, 3)), Duration.ofMinutes(10));

        assertThat(outcome).isInstanceOfSatisfying(Reserved.class, reserved -> {
            assertThat(reserved.reservation().replayed()).as("the retry met the reservation made by the first "
                    + "attempt").isTrue();
            assertThat(reserved.reservation().state()).isEqualTo(ReservationState.RESERVED);
            assertThat(reserved.reservation().lines()).extracting(ReservedLine::qty).containsExactly(3);
        });
        List<Passed> reserves = gateway.passed().stream().filter(p -> p.path().equals("/api/v1/reservations")
                && p.body().contains("client-it-order-1")).toList();
        assertThat(reserves).extracting(Passed::serviceStatus).containsExactly(201, 200);
        assertThat(reserves.get(1).body()).as("the same order id and lines").isEqualTo(reserves.get(0).body());
        assertThat(stock(sku)).satisfies(stock -> {
            assertThat(stock.reserved()).as("held once").isEqualTo(3);
            assertThat(stock.available()).isEqualTo(7);
        });
        assertThat(client.get("client-it-order-1")).isInstanceOfSatisfying(Reservation.class,
                reservation -> assertThat(reservation.state()).isEqualTo(ReservationState.RESERVED));

        assertThat(client.cancel("client-it-order-1")).isInstanceOfSatisfying(Reservation.class, cancelled -> {
            assertThat(cancelled.state()).isEqualTo(ReservationState.CANCELLED);
            assertThat(cancelled.replayed()).isFalse();
        });
        assertThat(stock(sku)).satisfies(stock -> {
            assertThat(stock.reserved()).isZero();
            assertThat(stock.available()).isEqualTo(10);
        });
        assertThat(client.reserve("client-it-order-1", List.of(Line.of(sku, 3)), Duration.ofMinutes(10)))
                .as("a cancelled order is not reserved again").isInstanceOfSatisfying(Refused.class,
                        refused -> assertThat(refused.code()).isEqualTo("ORDER_CANCELLED"));
    }

    @Test
    void aProductPagesAvailabilityShowsWhatSellsAndAnUnknownSkuIsRefused() {
        String sku = "CLIENT-IT-PAGE-1";
        createSku(sku, 2);
        assertThat(client.availability(sku)).isInstanceOfSatisfying(Availability.class, page -> {
            assertThat(page.available()).isEqualTo(2);
            assertThat(page.mode()).isEqualTo(SkuMode.NORMAL);
            assertThat(page.sellable()).isTrue();
            assertThat(page.maxAgeMillis()).as("the service's bound, 50 ms unless set").isEqualTo(50);
        });
        assertThat(client.reserve("client-it-page-1", List.of(Line.of(sku, 2)), Duration.ofMinutes(10)))
                .isInstanceOf(Reserved.class);
        assertThat(client.availability(sku)).as("a change this instance acknowledged shows at once")
                .isInstanceOfSatisfying(Availability.class, page -> {
                    assertThat(page.available()).isZero();
                    assertThat(page.sellable()).isFalse();
                });
        assertThat(client.availability("CLIENT-IT-PAGE-NONE")).isInstanceOfSatisfying(Refused.class,
                refused -> assertThat(refused.code()).isEqualTo("UNKNOWN_SKU"));
    }

    @Test
    void aCustomersOrdersStopAtTheSkusLimitWithTheNumbersInTheRefusal() {
        String sku = "CLIENT-IT-LIMIT-1";
        createSku(sku, 10);
        assertThat(service.send("PUT", "/api/v1/skus/" + sku, "{\"total\": 10, \"limitPerCustomer\": 2}")
                .statusCode()).isEqualTo(200);
        assertThat(client.reserveFor("client-it-customer", "client-it-limit-1", List.of(Line.of(sku, 2)), null))
                .isInstanceOfSatisfying(Reserved.class,
                        reserved -> assertThat(reserved.reservation().customerId()).isEqualTo("client-it-customer"));
        assertThat(client.reserveFor("client-it-customer", "client-it-limit-2", List.of(Line.of(sku, 1)), null))
                .isInstanceOfSatisfying(Refused.class, refused -> {
                    assertThat(refused.code()).isEqualTo("LIMIT_EXCEEDED");
                    assertThat(((Number) refused.problem().fields().get("limit")).longValue()).isEqualTo(2);
                    assertThat(((Number) refused.problem().fields().get("held")).longValue()).isEqualTo(2);
                });
        assertThatThrownBy(() -> client.reserveFor("no spaces", "client-it-limit-3", List.of(Line.of(sku, 1)), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("customerId");
    }

    @Test
    void aConfirmAndACancelAnsweredOutcomeUnknownAreRetriedToTheirRealOutcome() {
        String sku = "CLIENT-IT-UNKNOWN-1";
        createSku(sku, 5);
        assertThat(client.reserve("client-it-order-2", List.of(Line.of(sku, 2)))).isInstanceOf(Reserved.class);

        gateway.spoilNext("POST", "/api/v1/reservations/client-it-order-2/extend", Fault.OUTCOME_UNKNOWN);
        assertThat(client.extend("client-it-order-2", Duration.ofMinutes(30))).isInstanceOfSatisfying(Reservation.class,
                extended -> {
                    assertThat(extended.extensions()).isEqualTo(1);
                    assertThat(extended.replayed()).as("the first extension was made; the retry replays it").isTrue();
                    assertThat(extended.expiresAt()).isEqualTo(extended.createdAt().plus(Duration.ofMinutes(30)));
                });

        gateway.spoilNext("POST", "/api/v1/reservations/client-it-order-2/confirm", Fault.OUTCOME_UNKNOWN);
        assertThat(client.confirm("client-it-order-2")).isInstanceOfSatisfying(Reservation.class, confirmed -> {
            assertThat(confirmed.state()).isEqualTo(ReservationState.CONFIRMED);
            assertThat(confirmed.replayed()).as("the first confirm was applied; the retry replays it").isTrue();
        });
        assertThat(stock(sku).sold()).isEqualTo(2);

        gateway.spoilNext("POST", "/api/v1/reservations/client-it-order-2/cancel", Fault.OUTCOME_UNKNOWN);
        assertThat(client.cancel("client-it-order-2")).isInstanceOfSatisfying(Reservation.class, cancelled -> {
            assertThat(cancelled.state()).isEqualTo(ReservationState.CANCELLED);
            assertThat(cancelled.replayed()).isTrue();
        });
        assertThat(stock(sku)).satisfies(stock -> {
            assertThat(stock.sold()).isZero();
            assertThat(stock.available()).isEqualTo(5);
        });
    }

    @Test
    void aRefusalOfTheRealServiceIsAValueAndIsSentOnce() {
        String sku = "CLIENT-IT-SHORT-1";
        createSku(sku, 1);
        int before = gateway.passed().size();

        assertThat(client.reserve("client-it-order-3", List.of(Line.of(sku, 2)))).isInstanceOfSatisfying(
                Refused.class, refused -> {
                    assertThat(refused.code()).isEqualTo("INSUFFICIENT_STOCK");
                    assertThat(refused.problem().status()).isEqualTo(409);
                    assertThat(refused.problem().fields()).containsEntry("available", 1);
                });
        assertThat(gateway.passed().size() - before).isEqualTo(1);
        assertThat(client.stock("CLIENT-IT-NO-SUCH-SKU")).isInstanceOfSatisfying(Refused.class,
                refused -> assertThat(refused.code()).isEqualTo("UNKNOWN_SKU"));
    }
}
