package io.stockguard.bench.stockguard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.stockguard.bench.Contender.Attempt;
import io.stockguard.bench.Contender.Outcome;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The session on our Java client against a stub of the service: what it sends, and how the
 * client's outcomes count in the bench (sold, sold out, or an error, one request each).
 */
class StockGuardClientSessionTest {

    private static final String RESERVATION = """
            {"orderId":"o-1","state":"RESERVED","lines":[{"skuId":"HOT-0","qty":1,"bucket":3}],\
            "createdAt":"2026-11-11T00:00:00Z","expiresAt":"2026-11-11T00:15:00Z","replayed":false}""";
    /** A product page's read, as the service answers it. */
    private static final String AVAILABILITY = """
            {"skuId":"HOT-0","available":7,"mode":"NORMAL","sellable":true,"maxAgeMillis":50}""";

    /** One answer per request, in order. */
    private record Answer(int status, String body, String... headers) {
    }

    private record Request(String method, String path, String authorization, String body) {
    }

    private HttpServer service;
    private final BlockingQueue<Answer> answers = new LinkedBlockingQueue<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        service = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        service.createContext("/", exchange -> {
            requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            Answer answer = answers.poll();
            if (answer == null) {
                answer = new Answer(500, "{\"code\":\"INTERNAL\",\"status\":500}");
            }
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", answer.status() < 400 ? "application/json"
                    : "application/problem+json");
            for (int i = 0; i < answer.headers().length; i += 2) {
                exchange.getResponseHeaders().add(answer.headers()[i], answer.headers()[i + 1]);
            }
            exchange.sendResponseHeaders(answer.status(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        service.start();
    }

    @AfterEach
    void stop() {
        service.stop(0);
    }

    private StockGuardClientSession session() {
        return new StockGuardClientSession(service.getAddress().getPort(), "bench-key");
    }

    private static String problem(int status, String code) {
        return "{\"type\":\"about:blank\",\"title\":\"" + code + "\",\"status\":" + status + ",\"detail\":\"" + code
                + " happened\",\"code\":\"" + code + "\"}";
    }

    @Test
    void aReservationIsOneLineWithTheServicesDefaultTimeToLiveAndItsAnswerASale() {
        answers.add(new Answer(201, RESERVATION));
        try (StockGuardClientSession session = session()) {
            assertThat(session.reserve("HOT-0", 1, "o-1")).isEqualTo(Attempt.SOLD);
        }
        assertThat(requests).singleElement().satisfies(request -> {
            assertThat(request.method()).isEqualTo("POST");
            assertThat(request.path()).isEqualTo(StockApi.RESERVATIONS);
            assertThat(request.authorization()).isEqualTo("Bearer bench-key");
            // What the lean client sends, so both clients ask the service for the same work.
            assertThat(request.body()).isEqualTo(StockApi.reservation(new StringBuilder(), "o-1", "HOT-0", 1)
                    .toString());
        });
    }

    @Test
    void insufficientStockIsSoldOutAndEveryOtherRefusalAnError() {
        answers.add(new Answer(409, problem(409, "INSUFFICIENT_STOCK")));
        answers.add(new Answer(409, problem(409, "SKU_FROZEN")));
        answers.add(new Answer(429, problem(429, "THROTTLED"), "Retry-After", "1"));
        try (StockGuardClientSession session = session()) {
            assertThat(session.reserve("HOT-0", 1, "o-1")).isEqualTo(Attempt.SOLD_OUT);
            assertThat(session.reserve("HOT-0", 1, "o-2")).isEqualTo(new Attempt(Outcome.ERROR, 0));
            assertThat(session.reserve("HOT-0", 1, "o-3")).isEqualTo(new Attempt(Outcome.ERROR, 0));
        }
    }

    @Test
    void anUnavailableServiceIsAnErrorOfOneRequestNotRetried() {
        answers.add(new Answer(503, problem(503, "UNAVAILABLE"), "Retry-After", "1"));
        answers.add(new Answer(201, RESERVATION));
        try (StockGuardClientSession session = session()) {
            assertThat(session.reserve("HOT-0", 1, "o-1")).isEqualTo(new Attempt(Outcome.ERROR, 0));
        }
        assertThat(requests).hasSize(1);
    }

    @Test
    void aStockQueryReadsTheSkusAvailabilityAsAProductPageDoes() {
        answers.add(new Answer(200, AVAILABILITY));
        try (StockGuardClientSession session = session()) {
            assertThat(session.read("HOT-0")).isEqualTo(7);
        }
        assertThat(requests).singleElement().satisfies(request -> {
            assertThat(request.method()).isEqualTo("GET");
            assertThat(request.path()).isEqualTo(StockApi.SKUS + "HOT-0" + StockApi.AVAILABILITY);
        });
    }

    @Test
    void aStockQueryThatFailsThrowsWhatTheServiceAnswered() {
        answers.add(new Answer(404, problem(404, "UNKNOWN_SKU")));
        try (StockGuardClientSession session = session()) {
            assertThatThrownBy(() -> session.read("HOT-0")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("404 UNKNOWN_SKU");
        }
    }
}
