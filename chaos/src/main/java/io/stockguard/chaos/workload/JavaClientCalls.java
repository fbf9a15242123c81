package io.stockguard.chaos.workload;

import io.stockguard.chaos.cluster.Cluster;
import io.stockguard.chaos.history.Op;
import io.stockguard.client.Failure;
import io.stockguard.client.Line;
import io.stockguard.client.OrderOutcome;
import io.stockguard.client.Problem;
import io.stockguard.client.Refused;
import io.stockguard.client.Reservation;
import io.stockguard.client.Reserved;
import io.stockguard.client.RetryPolicy;
import io.stockguard.client.StockGuardClient;
import io.stockguard.client.Throttled;
import io.stockguard.client.Unresolved;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Order changes and reads sent through StockGuard's Java client, as an order service that uses it
 * would: one client per instance, its retry contract doing the retries. Each call is one operation
 * in the history, so the checker holds the client's verdicts to the same rules as raw answers: a
 * {@link Reserved} must be held, and an {@link Unresolved} that says the change was certainly not
 * applied ({@code mayHaveApplied == false}) is recorded as a refusal, which must then have had no
 * effect.
 */
final class JavaClientCalls implements AutoCloseable {

    /**
     * A few attempts on the same instance, within a deadline that outlasts one unanswered request
     * and a Retry-After: enough to ride out a store failover, short enough that a killed instance
     * sends the caller to the next one soon.
     */
    private static final RetryPolicy RETRIES = new RetryPolicy(3, Duration.ofSeconds(12), Duration.ofMillis(100),
            Duration.ofSeconds(2));

    private final Map<String, StockGuardClient> byInstance = new LinkedHashMap<>();

    JavaClientCalls(List<Target> instances, Duration requestTimeout) {
        for (Target instance : instances) {
            byInstance.put(instance.name(), StockGuardClient.builder(instance.baseUrl(), Cluster.API_KEY)
                    .requestTimeout(requestTimeout).retryPolicy(RETRIES).build());
        }
    }

    /** @param customerId who the order is for, or null */
    OrderOutcome reserve(Target instance, String customerId, String orderId, List<Op.Line> lines, long ttlSeconds) {
        List<Line> asked = lines.stream().map(line -> Line.of(line.skuId(), line.qty())).toList();
        return switch (client(instance).reserveFor(customerId, orderId, asked, Duration.ofSeconds(ttlSeconds))) {
            case Reserved reserved -> reserved.reservation();
            case Failure failure -> failure;
        };
    }

    OrderOutcome confirm(Target instance, String orderId) {
        return client(instance).confirm(orderId);
    }

    OrderOutcome cancel(Target instance, String orderId) {
        return client(instance).cancel(orderId);
    }

    OrderOutcome extend(Target instance, String orderId, long holdSeconds) {
        return client(instance).extend(orderId, Duration.ofSeconds(holdSeconds));
    }

    OrderOutcome read(Target instance, String orderId) {
        return client(instance).get(orderId);
    }

    private StockGuardClient client(Target instance) {
        return byInstance.get(instance.name());
    }

    /** Whether the call ended; an unresolved one sends the caller to another instance. */
    static boolean ended(OrderOutcome outcome) {
        return !(outcome instanceof Unresolved);
    }

    /**
     * A reservation: it happened. Refused or throttled: it did not. Unresolved: in doubt unless the
     * client says it certainly did not apply (every attempt refused UNAVAILABLE or never connected).
     */
    static Op.Type type(OrderOutcome outcome) {
        return switch (outcome) {
            case Reservation reservation -> Op.Type.OK;
            case Refused refused -> Op.Type.FAIL;
            case Throttled throttled -> Op.Type.FAIL;
            case Unresolved unresolved -> unresolved.mayHaveApplied() ? Op.Type.INFO : Op.Type.FAIL;
        };
    }

    /**
     * The completion with what the client returned. The client gives values, not statuses; a
     * reservation is recorded with the status its answer must have had (201 made, 200 replayed or
     * any other call), which is what the idempotency rule reads.
     */
    static Op describe(Op completion, OrderOutcome outcome) {
        return switch (outcome) {
            case Reservation reservation -> completion.withAnswer(
                    completion.f().equals("reserve") && !reservation.replayed() ? 201 : 200, null,
                    reservation.replayed(), reservation.state() == null ? null : reservation.state().name(),
                    reservation.lines().stream().map(line -> new Op.Line(line.skuId(), line.qty())).toList(), null,
                    null, null);
            case Unresolved unresolved -> completion.withAnswer(
                    unresolved.lastProblem().map(Problem::status).orElse(0),
                    unresolved.lastProblem().map(Problem::code).orElse(null), null, null, null, null, null,
                    "java client, " + unresolved.attempts() + " attempts: " + unresolved.reason());
            case Refused refused -> refusal(completion, refused.problem());
            case Throttled throttled -> refusal(completion, throttled.problem());
        };
    }

    private static Op refusal(Op completion, Problem problem) {
        return completion.withAnswer(problem.status(), problem.code(), null, null, null, null, null, problem.detail());
    }

    @Override
    public void close() {
        byInstance.values().forEach(StockGuardClient::close);
    }
}
