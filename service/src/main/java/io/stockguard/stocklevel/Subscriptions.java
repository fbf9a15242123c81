package io.stockguard.stocklevel;

import io.stockguard.audit.AuditLog;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.ProblemCode;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The webhooks subscribed by the admin API, beside those configured by property: made and removed
 * by an admin, audited, and read by the watcher and the deliveries of every instance (each reads
 * the table at most once a second, so a new subscription gets the events made from then on).
 */
@Component
public class Subscriptions {

    /** Subscriptions the API keeps: each is one more delivery of every event. */
    static final int SUBSCRIPTIONS_MAX = 50;
    private static final Duration FRESH_FOR = Duration.ofSeconds(1);
    private static final int SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final StockLevelStore store;
    private final StockLevelProperties properties;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private volatile Read read;

    private record Read(List<Subscription> subscriptions, long atNanos) {
    }

    Subscriptions(StockLevelStore store, StockLevelProperties properties, AuditLog audit,
            TransactionTemplate transactions, Clock clock) {
        this.store = store;
        this.properties = properties;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** The subscriptions as stored at most a second ago; the last read ones while the database fails. */
    public List<Subscription> current() {
        Read last = read;
        if (last != null && System.nanoTime() - last.atNanos() < FRESH_FOR.toNanos()) {
            return last.subscriptions();
        }
        try {
            Read now = new Read(List.copyOf(store.subscriptions(SUBSCRIPTIONS_MAX)), System.nanoTime());
            read = now;
            return now.subscriptions();
        } catch (RuntimeException e) {
            if (last == null) {
                throw e;
            }
            return last.subscriptions();
        }
    }

    /**
     * Subscribes a webhook; with no secret given, one is made. The answer carries the secret: the
     * only time the API shows it.
     */
    public Subscription subscribe(String name, String url, String secret, Caller caller) {
        reject("name", WebhookRules.nameProblem(name));
        reject("url", WebhookRules.urlProblem(url));
        String key = secret == null ? HexFormat.of().formatHex(randomBytes()) : secret;
        reject("secret", WebhookRules.secretProblem(key));
        if (properties.webhooks().stream().anyMatch(w -> w.name().equals(name))) {
            throw taken(name);
        }
        Subscription subscription = new Subscription(name, url, key, clock.instant(), caller.actor().toString());
        transactions.executeWithoutResult(status -> {
            if (store.subscriptions(SUBSCRIPTIONS_MAX).size() >= SUBSCRIPTIONS_MAX) {
                throw new InvalidRequestException("name", "there are " + SUBSCRIPTIONS_MAX
                        + " subscriptions already: remove one first");
            }
            if (!store.subscribe(subscription)) {
                throw taken(name);
            }
            audit.record(caller.actor(), "WEBHOOK_SUBSCRIBE", "webhook:" + name, "stock-level events", null,
                    Map.of("url", url), caller.traceId());
        });
        read = null;
        return subscription;
    }

    /** Removes a subscription made by the API; its pending deliveries are given up. */
    public void unsubscribe(String name, Caller caller) {
        if (properties.webhooks().stream().anyMatch(w -> w.name().equals(name))) {
            throw new ApiProblemException(ProblemCode.CONFIGURED_BY_PROPERTY, "webhook '" + name + "' is configured "
                    + "by stockguard.stock-levels.webhooks: remove it from the service's configuration",
                    Map.of("name", name));
        }
        transactions.executeWithoutResult(status -> {
            Subscription existing = store.subscriptions(SUBSCRIPTIONS_MAX).stream()
                    .filter(s -> s.name().equals(name)).findFirst()
                    .orElseThrow(() -> new ApiProblemException(ProblemCode.UNKNOWN_WEBHOOK,
                            "no webhook subscription named '" + name + "'", Map.of("name", name)));
            store.unsubscribe(name);
            audit.record(caller.actor(), "WEBHOOK_UNSUBSCRIBE", "webhook:" + name, "stock-level events",
                    Map.of("url", existing.url()), null, caller.traceId());
        });
        read = null;
    }

    private static ApiProblemException taken(String name) {
        return new ApiProblemException(ProblemCode.NAME_TAKEN, "a webhook named '" + name + "' exists",
                Map.of("name", name));
    }

    private static void reject(String field, String problem) {
        if (problem != null) {
            throw new InvalidRequestException(field, problem);
        }
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[SECRET_BYTES];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
