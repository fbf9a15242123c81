package io.stockguard.bench.stockguard;

import io.stockguard.bench.Contender;
import io.stockguard.client.Availability;
import io.stockguard.client.Failure;
import io.stockguard.client.Line;
import io.stockguard.client.Refused;
import io.stockguard.client.Reserved;
import io.stockguard.client.RetryPolicy;
import io.stockguard.client.StockGuardClient;
import io.stockguard.client.Throttled;
import io.stockguard.client.Unresolved;
import java.time.Duration;
import java.util.List;

/**
 * A session on StockGuard's HTTP API through our Java client, {@link StockGuardClient} (the JDK's
 * {@code HttpClient} underneath): what an order service using the client gets, its costs (request
 * objects, futures, Jackson on both ways) included. Compare with {@link LeanHttpSession} through
 * {@code --http-client}.
 */
final class StockGuardClientSession implements Contender.Session {

    /** As the lean client's: a bench run under load must not turn slow answers into errors sooner than it. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final String INSUFFICIENT_STOCK = "INSUFFICIENT_STOCK";

    /**
     * One per session, not one shared as an order service would: each session is one client thread
     * with its own connection, as with the lean client, so the two compare like for like.
     */
    private final StockGuardClient stockGuard;

    StockGuardClientSession(int port, String apiKey) {
        // One attempt, no retry (RetryPolicy.NONE), though an order service would keep the default:
        // the bench's figures are per request, as the lean client's are, and a request the service
        // did not sell (503 UNAVAILABLE or OUTCOME_UNKNOWN, a lost connection) must count as an
        // ERROR. Retried inside the client, it would count as one slower sale, its Retry-After wait
        // in the latency, and the two clients' figures would no longer compare.
        this.stockGuard = StockGuardClient.builder("http://localhost:" + port, apiKey)
                .connectTimeout(CONNECT_TIMEOUT).requestTimeout(REQUEST_TIMEOUT).retryPolicy(RetryPolicy.NONE)
                .build();
    }

    /** One line, for the service's default time to live, as the lean client sends it ({@link StockApi#reservation}). */
    @Override
    public Contender.Attempt reserve(String sku, int qty, String orderId) {
        return switch (stockGuard.reserve(orderId, List.of(Line.of(sku, qty)))) {
            case Reserved reserved -> Contender.Attempt.SOLD;
            case Refused refused when refused.code().equals(INSUFFICIENT_STOCK) -> Contender.Attempt.SOLD_OUT;
            case Failure failure -> new Contender.Attempt(Contender.Outcome.ERROR, 0);
        };
    }

    @Override
    public long read(String sku) {
        return switch (stockGuard.availability(sku)) {
            case Availability availability -> availability.available();
            case Failure failure -> throw new IllegalStateException("stock query answered " + describe(failure));
        };
    }

    /** For the run's first error: what the service answered, or why there was no answer. */
    private static String describe(Failure failure) {
        return switch (failure) {
            case Refused refused -> refused.problem().status() + " " + refused.code() + ": " + refused.detail();
            case Throttled throttled -> throttled.problem().status() + " " + throttled.problem().code()
                    + ", retry after " + throttled.retryAfter();
            case Unresolved unresolved -> "nothing definite: " + unresolved.reason();
        };
    }

    @Override
    public void close() {
        stockGuard.close();
    }
}
