package io.stockguard.client;

import static io.stockguard.client.ScriptedServer.answer;
import static io.stockguard.client.ScriptedServer.dropConnection;
import static io.stockguard.client.ScriptedServer.hang;
import static io.stockguard.client.ScriptedServer.json;
import static io.stockguard.client.ScriptedServer.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The client against a scripted local server: what it sends, what it retries, and when it stops. */
class StockGuardClientTest {

    private static final String KEY = "order-service-key-123";
    private static final List<Line> LINES = List.of(Line.of("LIPSTICK-01", 2));
    /** Quick backoffs, so that the tests that meet them take milliseconds. */
    private static final RetryPolicy QUICK = new RetryPolicy(5, Duration.ofSeconds(10), Duration.ofMillis(10),
            Duration.ofMillis(40));

    private ScriptedServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private StockGuardClient client(RetryPolicy policy) {
        return StockGuardClient.builder(server.baseUrl(), KEY).retryPolicy(policy).build();
    }

    static String reservation(String orderId, String state, boolean replayed) {
        return """
                {"orderId":"%s","state":"%s","lines":[{"skuId":"LIPSTICK-01","qty":2,"bucket":3}],\
                "createdAt":"2026-11-11T00:00:00Z","expiresAt":"2026-11-11T00:15:00Z","confirmedAt":null,\
                "closedAt":null,"traceId":"trace-1","replayed":%s,"addedLater":{"ignored":true}}"""
                .formatted(orderId, state, replayed);
    }

    @Test
    void a503WithRetryAfterIsSentAgainUnderTheSameOrderIdAfterTheWait() {
        server = new ScriptedServer(problem(503, "UNAVAILABLE", "Retry-After", "1"),
                json(201, reservation("order-1", "RESERVED", false)));
        try (StockGuardClient client = client(QUICK)) {
            ReserveOutcome outcome = client.reserve("order-1", LINES, Duration.ofMinutes(15));

            assertThat(outcome).isInstanceOfSatisfying(Reserved.class, reserved -> {
                assertThat(reserved.reservation().orderId()).isEqualTo("order-1");
                assertThat(reserved.reservation().state()).isEqualTo(ReservationState.RESERVED);
                assertThat(reserved.reservation().lines()).containsExactly(new ReservedLine("LIPSTICK-01", 2, 3));
                assertThat(reserved.reservation().expiresAt()).isEqualTo(Instant.parse("2026-11-11T00:15:00Z"));
                assertThat(reserved.reservation().replayed()).isFalse();
            });
        }
        List<ScriptedServer.Received> received = server.received();
        assertThat(received).hasSize(2);
        assertThat(received).allSatisfy(request -> {
            assertThat(request.method()).isEqualTo("POST");
            assertThat(request.path()).isEqualTo("/api/v1/reservations");
            assertThat(request.header("Authorization")).isEqualTo("Bearer " + KEY);
            assertThat(request.header("Content-Type")).isEqualTo("application/json");
        });
        assertThat(received.get(0).body()).isEqualTo(
                "{\"orderId\":\"order-1\",\"lines\":[{\"skuId\":\"LIPSTICK-01\",\"qty\":2}],\"ttlSeconds\":900}");
        assertThat(received.get(1).body()).as("the retry is the same request").isEqualTo(received.get(0).body());
        assertThat(Duration.between(received.get(0).at(), received.get(1).at()))
                .as("Retry-After: 1 is honoured").isGreaterThanOrEqualTo(Duration.ofMillis(950));
    }

    @Test
    void anOutcomeUnknownWhoseRetryFindsTheReservationIsASuccessHeldOnce() {
        server = new ScriptedServer(problem(503, "OUTCOME_UNKNOWN", "Retry-After", "1"),
                json(200, reservation("order-2", "RESERVED", true)));
        try (StockGuardClient client = client(QUICK)) {
            assertThat(client.reserve("order-2", LINES)).isInstanceOfSatisfying(Reserved.class,
                    reserved -> assertThat(reserved.reservation().replayed()).isTrue());
        }
        assertThat(server.received()).hasSize(2);
        assertThat(server.received().get(1).body()).contains("\"orderId\":\"order-2\"").doesNotContain("ttlSeconds");
    }

    @Test
    void aLostAnswerIsSentAgainUnderTheSameOrderIdAndItsReplayIsTheSuccess() {
        server = new ScriptedServer(dropConnection(), json(200, reservation("order-3", "RESERVED", true)));
        try (StockGuardClient client = client(QUICK)) {
            assertThat(client.reserve("order-3", LINES)).isInstanceOfSatisfying(Reserved.class,
                    reserved -> assertThat(reserved.reservation().replayed()).isTrue());
        }
        assertThat(server.received()).hasSize(2);
        assertThat(server.received().get(1).body()).isEqualTo(server.received().get(0).body());
    }

    @Test
    void aConflictIsRefusedAtOnceWithItsCodeAndNeverRetried() throws InterruptedException {
        server = new ScriptedServer(answer(409, "application/problem+json", """
                {"type":"/problems/insufficient-stock","title":"Insufficient stock","status":409,\
                "detail":"SKU LIPSTICK-01 has 1 available, 2 requested","code":"INSUFFICIENT_STOCK",\
                "traceId":"t-9","skuId":"LIPSTICK-01","requested":2,"available":1}"""),
                json(201, reservation("order-4", "RESERVED", false)));
        try (StockGuardClient client = client(QUICK)) {
            assertThat(client.reserve("order-4", LINES)).isInstanceOfSatisfying(Refused.class, refused -> {
                assertThat(refused.code()).isEqualTo("INSUFFICIENT_STOCK");
                assertThat(refused.detail()).isEqualTo("SKU LIPSTICK-01 has 1 available, 2 requested");
                assertThat(refused.problem().status()).isEqualTo(409);
                assertThat(refused.problem().traceId()).isEqualTo("t-9");
                assertThat(refused.problem().fields()).containsEntry("available", 1).containsEntry("requested", 2);
            });
        }
        // The client is synchronous: once it has answered, every attempt it made has arrived.
        assertThat(server.received()).hasSize(1);
    }

    @ParameterizedTest
    @CsvSource({"400, INVALID_REQUEST", "401, UNAUTHENTICATED", "403, FORBIDDEN", "404, UNKNOWN_SKU",
            "409, IDEMPOTENCY_CONFLICT", "409, ORDER_CANCELLED", "423, SKU_FROZEN"})
    void definiteRefusalsAreValuesAndAreNeverRetried(int status, String code) {
        server = new ScriptedServer(problem(status, code, "Retry-After", "1"));
        try (StockGuardClient client = client(QUICK)) {
            assertThat(client.reserve("order-5", LINES)).isInstanceOfSatisfying(Refused.class,
                    refused -> assertThat(refused.code()).isEqualTo(code));
        }
        assertThat(server.received()).hasSize(1);
    }

    @Test
    void aThrottledReservationComesBackWithItsWaitAndIsLeftToTheCaller() {
        server = new ScriptedServer(problem(429, "THROTTLED", "Retry-After", "3"));
        try (StockGuardClient client = client(QUICK)) {
            assertThat(client.reserve("order-6", LINES)).isInstanceOfSatisfying(Throttled.class, throttled -> {
                assertThat(throttled.retryAfter()).isEqualTo(Duration.ofSeconds(3));
                assertThat(throttled.problem().code()).isEqualTo("THROTTLED");
            });
        }
        assertThat(server.received()).hasSize(1);
    }

    @Test
    void theDeadlineEndsTheCallAndNoWaitIsStartedThatWouldOutlastIt() {
        server = new ScriptedServer(problem(503, "UNAVAILABLE", "Retry-After", "1"));
        RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(2500), Duration.ofMillis(10), Duration.ofMillis(40));
        Instant start = Instant.now();
        ReserveOutcome outcome;
        try (StockGuardClient client = client(policy)) {
            outcome = client.reserve("order-7", LINES);
        }
        Duration took = Duration.between(start, Instant.now());

        // Attempts at 0 s, 1 s and 2 s; a fourth would start at 3 s, past the 2.5 s deadline.
        assertThat(took).isLessThan(Duration.ofMillis(2500));
        assertThat(server.received()).hasSize(3);
        assertThat(outcome).isInstanceOfSatisfying(Unresolved.class, unresolved -> {
            assertThat(unresolved.attempts()).isEqualTo(3);
            assertThat(unresolved.mayHaveApplied()).as("UNAVAILABLE every time: certainly not applied").isFalse();
            assertThat(unresolved.lastProblem()).hasValueSatisfying(p -> assertThat(p.code()).isEqualTo("UNAVAILABLE"));
            assertThat(unresolved.retryAfter()).contains(Duration.ofSeconds(1));
            assertThat(unresolved.reason()).contains("deadline");
        });
    }

    @Test
    void aServiceThatNeverAnswersCannotHoldTheCallPastItsDeadline() {
        server = new ScriptedServer(hang(Duration.ofSeconds(20)));
        RetryPolicy policy = new RetryPolicy(5, Duration.ofSeconds(1), Duration.ofMillis(10), Duration.ofMillis(40));
        Instant start = Instant.now();
        ReserveOutcome outcome;
        try (StockGuardClient client = StockGuardClient.builder(server.baseUrl(), KEY).retryPolicy(policy)
                .requestTimeout(Duration.ofSeconds(30)).build()) {
            outcome = client.reserve("order-8", LINES);
        }
        assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofMillis(1900));
        assertThat(outcome).isInstanceOfSatisfying(Unresolved.class, unresolved -> assertThat(
                unresolved.mayHaveApplied()).as("the request was sent; the service may have applied it").isTrue());
    }

    @Test
    void attemptsAreBoundedAndAnUnknownOutcomeSaysTheChangeMayHaveBeenApplied() {
        server = new ScriptedServer(problem(503, "OUTCOME_UNKNOWN"));
        RetryPolicy policy = new RetryPolicy(3, Duration.ofSeconds(10), Duration.ofMillis(10), Duration.ofMillis(40));
        try (StockGuardClient client = client(policy)) {
            assertThat(client.confirm("order-9")).isInstanceOfSatisfying(Unresolved.class, unresolved -> {
                assertThat(unresolved.attempts()).isEqualTo(3);
                assertThat(unresolved.mayHaveApplied()).isTrue();
                assertThat(unresolved.retryAfter()).isEmpty();
            });
        }
        assertThat(server.received()).hasSize(3)
                .allSatisfy(request -> assertThat(request.path()).isEqualTo("/api/v1/reservations/order-9/confirm"));
    }

    @Test
    void aRefusedConnectionIsTriedAgainAndNothingCanHaveBeenApplied() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        RetryPolicy policy = new RetryPolicy(3, Duration.ofSeconds(10), Duration.ofMillis(10), Duration.ofMillis(40));
        try (StockGuardClient client = StockGuardClient.builder("http://127.0.0.1:" + closedPort, KEY)
                .retryPolicy(policy).build()) {
            assertThat(client.reserve("order-10", LINES)).isInstanceOfSatisfying(Unresolved.class, unresolved -> {
                assertThat(unresolved.attempts()).isEqualTo(3);
                assertThat(unresolved.mayHaveApplied()).isFalse();
                assertThat(unresolved.reason()).contains("could not connect");
            });
        }
    }

    @Test
    void aGatewaysErrorPageIsTriedAgainButAnInternalErrorIsNot() {
        server = new ScriptedServer(answer(502, "text/html", "<html>Bad Gateway</html>"),
                json(201, reservation("order-11", "RESERVED", false)));
        try (StockGuardClient client = client(QUICK)) {
            assertThat(client.reserve("order-11", LINES)).isInstanceOf(Reserved.class);
        }
        assertThat(server.received()).hasSize(2);
        server.close();

        server = new ScriptedServer(problem(500, "INTERNAL"), json(201, reservation("order-12", "RESERVED", false)));
        try (StockGuardClient client = client(QUICK)) {
            assertThat(client.reserve("order-12", LINES)).isInstanceOfSatisfying(Unresolved.class, unresolved -> {
                assertThat(unresolved.attempts()).isEqualTo(1);
                assertThat(unresolved.mayHaveApplied()).isTrue();
            });
        }
        assertThat(server.received()).hasSize(1);
    }

    @Test
    void retryAfterAsAnHttpDateIsHonoured() {
        // HTTP dates have whole seconds: two seconds ahead is a wait of one to two seconds.
        String inTwoSeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                Instant.now().plusSeconds(2).atOffset(ZoneOffset.UTC));
        server = new ScriptedServer(problem(503, "UNAVAILABLE", "Retry-After", inTwoSeconds),
                json(201, reservation("order-13", "RESERVED", false)));
        try (StockGuardClient client = client(QUICK)) {
            assertThat(client.reserve("order-13", LINES)).isInstanceOf(Reserved.class);
        }
        List<ScriptedServer.Received> received = server.received();
        assertThat(Duration.between(received.get(0).at(), received.get(1).at()))
                .isGreaterThanOrEqualTo(Duration.ofMillis(900));
    }

    @Test
    void confirmCancelReadAndStockReadTheirAnswersUnderABasePath() {
        server = new ScriptedServer(json(200, reservation("order-14", "CONFIRMED", false)),
                json(200, reservation("order-14", "CANCELLED", false)),
                problem(404, "UNKNOWN_ORDER"),
                json(200, """
                        {"skuId":"LIPSTICK-01","total":10,"available":7,"reserved":2,"sold":1,"mode":"FROZEN",\
                        "modeReason":"drift","safetyStock":0,"bucketCount":8,"buckets":[]}"""));
        try (StockGuardClient client = StockGuardClient.builder(server.baseUrl() + "/stockguard", KEY)
                .retryPolicy(QUICK).build()) {
            assertThat(client.confirm("order-14")).isInstanceOfSatisfying(Reservation.class,
                    reservation -> assertThat(reservation.state()).isEqualTo(ReservationState.CONFIRMED));
            assertThat(client.cancel("order-14")).isInstanceOfSatisfying(Reservation.class,
                    reservation -> assertThat(reservation.state()).isEqualTo(ReservationState.CANCELLED));
            assertThat(client.get("order-14")).isInstanceOfSatisfying(Refused.class,
                    refused -> assertThat(refused.code()).isEqualTo("UNKNOWN_ORDER"));
            assertThat(client.stock("LIPSTICK-01")).isEqualTo(
                    new Stock("LIPSTICK-01", 10, 7, 2, 1, SkuMode.FROZEN, 0, 8));
        }
        assertThat(server.received()).extracting(r -> r.method() + " " + r.path()).containsExactly(
                "POST /stockguard/api/v1/reservations/order-14/confirm",
                "POST /stockguard/api/v1/reservations/order-14/cancel",
                "GET /stockguard/api/v1/reservations/order-14",
                "GET /stockguard/api/v1/skus/LIPSTICK-01");
    }

    @Test
    void invalidInputIsRefusedBeforeAnythingIsSent() {
        server = new ScriptedServer(json(201, reservation("x", "RESERVED", false)));
        try (StockGuardClient client = client(QUICK)) {
            assertThatThrownBy(() -> client.confirm("../skus/LIPSTICK-01")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> client.reserve("order-15", List.of())).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> client.reserve("order-15", Collections.nCopies(101, Line.of("A", 1))))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> client.reserve("order-15", LINES, Duration.ofMillis(1500)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> client.reserve("order-15", LINES, Duration.ofDays(8)))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> Line.of("LIPSTICK-01", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StockGuardClient.builder("ftp://somewhere", KEY))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StockGuardClient.builder(server.baseUrl(), "a key with spaces"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(server.received()).isEmpty();
    }
}
