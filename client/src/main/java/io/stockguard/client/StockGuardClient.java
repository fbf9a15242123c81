package io.stockguard.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A client of the StockGuard API for order services. Thread-safe; make one per service and share
 * it. Every call returns its outcome as a value (see the package description) and follows the
 * API's retry contract: after {@code 503 UNAVAILABLE}, {@code 503 OUTCOME_UNKNOWN}, a gateway's
 * 502/503/504 or a failed connection, it sends the very same request again, under the same order
 * id, after the service's {@code Retry-After} (or a backoff with jitter), as long as its
 * {@link RetryPolicy} allows. A 200 to a retried reservation is its replay: the same reservation,
 * held once.
 *
 * <pre>{@code
 * try (var stockGuard = StockGuardClient.builder("http://stockguard:8080", apiKey).build()) {
 *     switch (stockGuard.reserve("order-1001", List.of(Line.of("LIPSTICK-01", 2)), Duration.ofMinutes(15))) {
 *         case Reserved reserved -> checkout(reserved.reservation());
 *         case Refused refused when refused.code().equals("INSUFFICIENT_STOCK") -> soldOut();
 *         case Refused refused -> reject(refused.code(), refused.detail());
 *         case Throttled throttled -> retryLater(throttled.retryAfter());
 *         case Unresolved unresolved -> retryLaterUnderTheSameOrderIdOrCancelIt(unresolved);
 *     }
 * }
 * }</pre>
 */
public final class StockGuardClient implements AutoCloseable {

    /** The largest answer of these endpoints (a 100-line reservation) is a few KiB. */
    static final int BODY_LIMIT = 1 << 20;
    /** The service's limits: lines per order, and a reservation's time to live. */
    static final int LINES_MAX = 100;
    static final Duration TTL_MIN = Duration.ofSeconds(1);
    static final Duration TTL_MAX = Duration.ofDays(7);
    /** The service refuses longer keys outright. */
    static final int KEY_LENGTH_MAX = 512;
    static final Duration TIMEOUT_MAX = Duration.ofMinutes(5);

    private static final System.Logger log = System.getLogger(StockGuardClient.class.getName());
    private static final String RESERVATIONS = "api/v1/reservations";
    private static final String SKUS = "api/v1/skus/";
    private static final String ACCEPT = "application/json, application/problem+json";
    /** The codes of docs/api.md after which the same request may be sent again. */
    private static final String UNAVAILABLE = "UNAVAILABLE";
    private static final String OUTCOME_UNKNOWN = "OUTCOME_UNKNOWN";
    /** Detail kept from a body that is not a problem (a proxy's page): enough for a log line. */
    private static final int FOREIGN_DETAIL_MAX = 200;

    private final URI baseUrl;
    private final String authorization;
    private final Duration requestTimeout;
    private final RetryPolicy retryPolicy;
    private final HttpClient http;
    private final Clock clock = Clock.systemUTC();
    private final JsonMapper json = JsonMapper.builder()
            // The service may add fields, modes or states; a client built before them keeps working.
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(EnumFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL)
            .build();

    private StockGuardClient(Builder builder) {
        this.baseUrl = builder.baseUrl;
        this.authorization = "Bearer " + builder.apiKey;
        this.requestTimeout = builder.requestTimeout;
        this.retryPolicy = builder.retryPolicy;
        // HTTP/1.1: the service speaks plain HTTP/1.1, and an h2c upgrade offer on every request is waste.
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(builder.connectTimeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /**
     * @param baseUrl where the service is, e.g. {@code http://stockguard:8080} (a path prefix, as
     *     behind a gateway, is kept)
     * @param apiKey an order-service key, sent as {@code Authorization: Bearer <key>}
     */
    public static Builder builder(String baseUrl, String apiKey) {
        return new Builder(baseUrl, apiKey);
    }

    /** Reserves every line or none, for the service's default time to live (15 minutes unless configured). */
    public ReserveOutcome reserve(String orderId, List<Line> lines) {
        return reserve(orderId, lines, null);
    }

    /**
     * Reserves every line of the order, or none. The order id is the idempotency key: a retry, by
     * this client or later by the caller, must use the same id and the same lines.
     *
     * @param ttl how long the stock is held unless confirmed: whole seconds from 1 s to 7 days, or
     *     null for the service's default
     */
    public ReserveOutcome reserve(String orderId, List<Line> lines, Duration ttl) {
        return reserveFor(null, orderId, lines, ttl);
    }

    /**
     * Reserves every line of {@code customerId}'s order, or none: each SKU's per-customer limit
     * counts it, and a line that would take the customer past it is refused with
     * {@code LIMIT_EXCEEDED} (the {@link Refused} problem says the limit and what they hold).
     *
     * @param customerId who the order is for (the same rules as an order id), or null for nobody named
     */
    public ReserveOutcome reserveFor(String customerId, String orderId, List<Line> lines, Duration ttl) {
        Ids.require("orderId", orderId);
        if (customerId != null) {
            Ids.require("customerId", customerId);
        }
        Objects.requireNonNull(lines, "lines");
        if (lines.isEmpty() || lines.size() > LINES_MAX) {
            throw new IllegalArgumentException("an order has 1 to " + LINES_MAX + " lines, not " + lines.size());
        }
        ObjectNode body = json.createObjectNode().put("orderId", orderId);
        if (customerId != null) {
            body.put("customerId", customerId);
        }
        ArrayNode array = body.putArray("lines");
        for (Line line : lines) {
            Objects.requireNonNull(line, "a line is null");
            array.addObject().put("skuId", line.skuId()).put("qty", line.qty());
        }
        if (ttl != null) {
            if (ttl.compareTo(TTL_MIN) < 0 || ttl.compareTo(TTL_MAX) > 0 || ttl.toNanosPart() != 0) {
                throw new IllegalArgumentException("ttl must be whole seconds from " + TTL_MIN + " to " + TTL_MAX
                        + ", was " + ttl);
            }
            body.put("ttlSeconds", ttl.toSeconds());
        }
        Result<Reservation> result = exchange("POST", RESERVATIONS, json.writeValueAsBytes(body), Reservation.class);
        return result.failure() != null ? result.failure() : new Reserved(result.value());
    }

    /** Turns the order's held stock into a sale. */
    public OrderOutcome confirm(String orderId) {
        return order(exchange("POST", RESERVATIONS + "/" + Ids.require("orderId", orderId) + "/confirm", null,
                Reservation.class));
    }

    /**
     * Holds a reserved order's stock longer, once: the hold is to last {@code hold} in all, counted
     * from when the reservation was made (as the reservation's ttl is), so a retry is harmless. The
     * service refuses a second extension with EXTENSION_LIMIT, and one past its configured maximum
     * with INVALID_REQUEST.
     *
     * @param hold whole seconds from 1 s to 7 days
     */
    public OrderOutcome extend(String orderId, Duration hold) {
        Ids.require("orderId", orderId);
        Objects.requireNonNull(hold, "hold");
        if (hold.compareTo(TTL_MIN) < 0 || hold.compareTo(TTL_MAX) > 0 || hold.toNanosPart() != 0) {
            throw new IllegalArgumentException("hold must be whole seconds from " + TTL_MIN + " to " + TTL_MAX
                    + ", was " + hold);
        }
        byte[] body = json.writeValueAsBytes(json.createObjectNode().put("ttlSeconds", hold.toSeconds()));
        return order(exchange("POST", RESERVATIONS + "/" + orderId + "/extend", body, Reservation.class));
    }

    /**
     * Returns the order's stock, held or sold. Cancelling an order the service has not seen leaves
     * a tombstone, so a reservation of it arriving later is refused with ORDER_CANCELLED: this is
     * also how to give up an order whose reservation stayed {@link Unresolved}.
     */
    public OrderOutcome cancel(String orderId) {
        return order(exchange("POST", RESERVATIONS + "/" + Ids.require("orderId", orderId) + "/cancel", null,
                Reservation.class));
    }

    /** The order's reservation as it stands; {@code Refused} with UNKNOWN_ORDER when there is none. */
    public OrderOutcome get(String orderId) {
        return order(exchange("GET", RESERVATIONS + "/" + Ids.require("orderId", orderId), null, Reservation.class));
    }

    /** A SKU's stock: total, available, reserved, sold and mode. */
    public StockOutcome stock(String skuId) {
        Result<Stock> result = exchange("GET", SKUS + Ids.require("skuId", skuId), null, Stock.class);
        return result.failure() != null ? result.failure() : result.value();
    }

    /**
     * What a product page shows of a SKU: available units, mode and whether it sells, at most the
     * service's {@code availability-max-age} old (50 ms unless set). For the live, full stock: {@link #stock}.
     */
    public AvailabilityOutcome availability(String skuId) {
        Result<Availability> result = exchange("GET", SKUS + Ids.require("skuId", skuId) + "/availability", null,
                Availability.class);
        return result.failure() != null ? result.failure() : result.value();
    }

    @Override
    public void close() {
        http.close();
    }

    private static OrderOutcome order(Result<Reservation> result) {
        return result.failure() != null ? result.failure() : result.value();
    }

    /** Exactly one of the two is set. */
    private record Result<T>(T value, Failure failure) {
    }

    /** What one attempt came to: the end of the call, or a reason to send the same request again. */
    private sealed interface Attempt<T> {

        record Ended<T>(Result<T> result) implements Attempt<T> {
        }

        record Again<T>(String reason, boolean mayHaveApplied, Problem problem, Optional<Duration> retryAfter)
                implements Attempt<T> {
        }
    }

    /**
     * Sends the request until a definite answer, within the retry policy. The body is written once,
     * so every attempt carries the same bytes: the same order id, the same lines.
     */
    private <T> Result<T> exchange(String method, String path, byte[] body, Class<T> type) {
        URI uri = baseUrl.resolve(path);
        boolean change = !method.equals("GET");
        Instant deadline = clock.instant().plus(retryPolicy.deadline());
        boolean mayHaveApplied = false;
        Problem lastProblem = null;
        Optional<Duration> lastRetryAfter = Optional.empty();
        for (int attempt = 1; ; attempt++) {
            Duration remaining = Duration.between(clock.instant(), deadline);
            if (remaining.isNegative() || remaining.isZero()) {
                return gaveUp("the deadline of " + retryPolicy.deadline() + " passed", attempt - 1,
                        mayHaveApplied, lastProblem, lastRetryAfter);
            }
            Duration timeout = remaining.compareTo(requestTimeout) < 0 ? remaining : requestTimeout;
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout)
                    .header("Authorization", authorization).header("Accept", ACCEPT)
                    .header("User-Agent", "stockguard-client");
            if (body == null) {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            } else {
                request.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
            }
            Attempt.Again<T> retry;
            CompletableFuture<HttpResponse<byte[]>> sent = http.sendAsync(request.build(),
                    BoundedBody.handler(BODY_LIMIT));
            try {
                // Bounded here too: the request's own timeout ends at the answer's headers, not its body.
                HttpResponse<byte[]> response = sent.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
                switch (read(response, type, change, attempt)) {
                    case Attempt.Ended<T> ended -> {
                        return ended.result();
                    }
                    case Attempt.Again<T> again -> retry = again;
                }
            } catch (TimeoutException e) {
                sent.cancel(true);
                retry = new Attempt.Again<>("no answer within " + timeout, change, null, Optional.empty());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof IOException failure)) {
                    throw new IllegalStateException("the request to " + uri + " failed unexpectedly", e.getCause());
                }
                // A connection that was never made carried nothing; any later failure may have
                // reached the service after the request was sent.
                boolean neverSent = refusedConnection(failure);
                retry = new Attempt.Again<>((neverSent ? "could not connect: " : "the connection failed: ") + failure,
                        change && !neverSent, null, Optional.empty());
            } catch (InterruptedException e) {
                sent.cancel(true);
                Thread.currentThread().interrupt();
                return gaveUp("interrupted", attempt, mayHaveApplied || change, lastProblem, lastRetryAfter);
            }
            mayHaveApplied |= retry.mayHaveApplied();
            if (retry.problem() != null) {
                lastProblem = retry.problem();
            }
            lastRetryAfter = retry.retryAfter();
            if (attempt >= retryPolicy.maxAttempts()) {
                return gaveUp(retry.reason() + "; gave up after " + attempt + " attempts", attempt,
                        mayHaveApplied, lastProblem, lastRetryAfter);
            }
            int failed = attempt;
            Duration wait = retry.retryAfter().orElseGet(() -> retryPolicy.backoff(failed, ThreadLocalRandom.current()));
            if (clock.instant().plus(wait).isAfter(deadline)) {
                // Retrying sooner than the service asked would only meet the same answer.
                return gaveUp(retry.reason() + "; the next attempt, in " + wait + ", would start after the "
                        + "deadline of " + retryPolicy.deadline(), attempt, mayHaveApplied, lastProblem,
                        lastRetryAfter);
            }
            log.log(System.Logger.Level.DEBUG, "{0} {1}: attempt {2} met {3}; the same request again in {4}",
                    method, uri, attempt, retry.reason(), wait);
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return gaveUp("interrupted", attempt, mayHaveApplied, lastProblem, lastRetryAfter);
            }
        }
    }

    /** Reads one answer: the end of the call, or a reason to send the same request again. */
    private <T> Attempt<T> read(HttpResponse<byte[]> response, Class<T> type, boolean change, int attempt) {
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            // A 2xx change is durable: if its body cannot be read, it was still applied.
            String unreadable;
            try {
                T value = json.readValue(response.body(), type);
                if (value != null) {
                    return ended(new Result<>(value, null));
                }
                unreadable = "it is empty";
            } catch (JacksonException e) {
                unreadable = e.getOriginalMessage();
            }
            return ended(new Result<>(null, unresolved("the answer (" + status + ") could not be read as a "
                    + type.getSimpleName() + ": " + unreadable, attempt, change, null, Optional.empty())));
        }
        Optional<Duration> retryAfter = response.headers().firstValue("Retry-After")
                .flatMap(header -> RetryAfter.parse(header, clock.instant()));
        ProblemReading reading = problem(response);
        Problem problem = reading.problem();
        if (status == 503 && reading.fromStockGuard()
                && (problem.code().equals(UNAVAILABLE) || problem.code().equals(OUTCOME_UNKNOWN))) {
            return new Attempt.Again<>("503 " + problem.code(), change && problem.code().equals(OUTCOME_UNKNOWN),
                    problem, retryAfter);
        }
        if ((status == 502 || status == 503 || status == 504) && !reading.fromStockGuard()) {
            // A gateway in front of the service answered: it may have passed the request on.
            return new Attempt.Again<>(status + " from a gateway", change, problem, retryAfter);
        }
        if (status == 429) {
            return ended(new Result<>(null, new Throttled(problem, retryAfter.orElse(Duration.ofSeconds(1)))));
        }
        if (status >= 400 && status < 500) {
            return ended(new Result<>(null, new Refused(problem)));
        }
        // 500 INTERNAL and anything else: not part of the retry contract, and not a definite refusal.
        return ended(new Result<>(null, unresolved(status + " " + problem.code(), attempt, change, problem,
                retryAfter)));
    }

    private static <T> Attempt<T> ended(Result<T> result) {
        return new Attempt.Ended<>(result);
    }

    private record ProblemReading(Problem problem, boolean fromStockGuard) {
    }

    private ProblemReading problem(HttpResponse<byte[]> response) {
        int status = response.statusCode();
        String traceId = response.headers().firstValue("X-Trace-Id").orElse(null);
        JsonNode body = null;
        try {
            body = response.body().length == 0 ? null : json.readTree(response.body());
        } catch (JacksonException e) {
            // not JSON: someone other than the service answered
        }
        if (body != null && body.isObject() && body.path("code").isString()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = json.treeToValue(body, Map.class);
            return new ProblemReading(new Problem(status, body.get("code").asString(), text(body, "title"),
                    text(body, "detail"), Optional.ofNullable(text(body, "traceId")).orElse(traceId), fields), true);
        }
        String text = new String(response.body(), StandardCharsets.UTF_8).strip();
        String detail = text.length() > FOREIGN_DETAIL_MAX ? text.substring(0, FOREIGN_DETAIL_MAX) + "…" : text;
        return new ProblemReading(new Problem(status, "HTTP_" + status, null, detail, traceId, Map.of()), false);
    }

    private static String text(JsonNode body, String field) {
        JsonNode node = body.get(field);
        return node == null || node.isNull() ? null : node.asString();
    }

    private static boolean refusedConnection(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof HttpConnectTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static <T> Result<T> gaveUp(String reason, int attempts, boolean mayHaveApplied, Problem lastProblem,
            Optional<Duration> retryAfter) {
        return new Result<>(null, unresolved(reason, attempts, mayHaveApplied, lastProblem, retryAfter));
    }

    private static Unresolved unresolved(String reason, int attempts, boolean mayHaveApplied, Problem lastProblem,
            Optional<Duration> retryAfter) {
        return new Unresolved(reason, attempts, mayHaveApplied, Optional.ofNullable(lastProblem), retryAfter);
    }

    /** Settings of a client; every one has a default but the base URL and the key. */
    public static final class Builder {

        private final URI baseUrl;
        private final String apiKey;
        private Duration connectTimeout = Duration.ofSeconds(2);
        private Duration requestTimeout = Duration.ofSeconds(5);
        private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;

        private Builder(String baseUrl, String apiKey) {
            Objects.requireNonNull(baseUrl, "baseUrl");
            URI uri = URI.create(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getQuery() != null
                    || uri.getFragment() != null) {
                throw new IllegalArgumentException("baseUrl must be an http(s) URL without query or fragment, was "
                        + baseUrl);
            }
            if (apiKey == null || apiKey.isBlank() || apiKey.length() > KEY_LENGTH_MAX
                    || apiKey.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
                throw new IllegalArgumentException("apiKey must be 1-" + KEY_LENGTH_MAX
                        + " printable characters without spaces");
            }
            this.baseUrl = uri;
            this.apiKey = apiKey;
        }

        /** How long to wait for a connection to be made; default 2 s. */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = bounded("connectTimeout", timeout);
            return this;
        }

        /**
         * How long one attempt waits for its whole answer; default 5 s. An attempt never outlives
         * the retry policy's deadline either.
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = bounded("requestTimeout", timeout);
            return this;
        }

        /** How many attempts, within what deadline; default {@link RetryPolicy#DEFAULT}. */
        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
            return this;
        }

        public StockGuardClient build() {
            return new StockGuardClient(this);
        }

        private static Duration bounded(String name, Duration timeout) {
            Objects.requireNonNull(timeout, name);
            if (timeout.toMillis() < 1 || timeout.compareTo(TIMEOUT_MAX) > 0) {
                throw new IllegalArgumentException(name + " must be 1 ms to " + TIMEOUT_MAX + ", was " + timeout);
            }
            return timeout;
        }
    }
}
