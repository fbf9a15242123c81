package io.stockguard.access;

import io.stockguard.audit.AuditLog;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.ProblemCode;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * API keys as admins see them: the configured ones (read-only) and those created from the console,
 * whose secret is shown once and stored only as a hash. A key created or revoked on one instance is
 * honoured by the others within {@link #REFRESH_INTERVAL_MS}.
 */
@Service
public class ApiKeyRegistry {

    private static final Logger log = LoggerFactory.getLogger(ApiKeyRegistry.class);
    /** How often every instance re-reads the key table: the delay before a revocation is honoured everywhere. */
    public static final long REFRESH_INTERVAL_MS = 5_000;
    /** Bounds the table and every listing. */
    public static final int KEYS_MAX = 1000;
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,31}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ApiKeys keys;
    private final KeyStore store;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;

    ApiKeyRegistry(ApiKeys keys, KeyStore store, AuditLog audit, TransactionTemplate transactions, Clock clock) {
        this.keys = keys;
        this.store = store;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
        // Before the web server takes requests: a key made on another instance works from the first one.
        refresh();
    }

    /** A key as listed: never its secret or hash. */
    public record KeyView(String name, KeyKind kind, boolean configured, Instant createdAt, String createdBy,
            Instant revokedAt, String revokedBy) {
    }

    /** A key just created: the only time its secret is shown. */
    public record CreatedKey(String name, KeyKind kind, String secret) {
    }

    public List<KeyView> all() {
        List<KeyView> all = new ArrayList<>();
        keys.configuredKinds().forEach((name, kind) -> all.add(new KeyView(name, kind, true, null,
                "configuration", null, null)));
        store.all(KEYS_MAX).forEach(key -> all.add(new KeyView(key.name(), key.kind(), false, key.createdAt(),
                key.createdBy(), key.revokedAt(), key.revokedBy())));
        return all;
    }

    public CreatedKey create(String name, KeyKind kind, String reason, Caller caller) {
        String checkedReason = ManagementReasons.require(reason);
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidRequestException("name", "must be 1-32 characters of a-z 0-9 . _ - (lower case)");
        }
        if (kind == null) {
            throw new InvalidRequestException("kind", "must be ORDER_SERVICE, ADMIN or METRICS");
        }
        if (keys.configuredKinds().containsKey(name)) {
            throw taken(name);
        }
        String secret = randomSecret();
        transactions.executeWithoutResult(status -> {
            if (store.count() >= KEYS_MAX) {
                throw new InvalidRequestException("name", "there are already " + KEYS_MAX + " keys");
            }
            if (!store.insert(name, kind, ApiKey.hash(secret), caller.actor().toString(), clock.instant())) {
                throw taken(name);
            }
            audit.record(caller.actor(), "KEY_CREATE", "key:" + name, checkedReason, null,
                    Map.of("kind", kind.name()), caller.traceId());
        });
        refresh();
        return new CreatedKey(name, kind, secret);
    }

    public void revoke(String name, String reason, Caller caller) {
        String checkedReason = ManagementReasons.require(reason);
        if (keys.configuredKinds().containsKey(name)) {
            throw new InvalidRequestException("name", "is configured in the environment; remove it there");
        }
        transactions.executeWithoutResult(status -> {
            if (!store.revoke(name, caller.actor().toString(), clock.instant())) {
                throw new ApiProblemException(ProblemCode.NOT_FOUND, "no unrevoked key named '" + name + "'",
                        Map.of("name", String.valueOf(name)));
            }
            audit.record(caller.actor(), "KEY_REVOKE", "key:" + name, checkedReason, Map.of("revoked", false),
                    Map.of("revoked", true), caller.traceId());
        });
        refresh();
    }

    @Scheduled(fixedDelay = REFRESH_INTERVAL_MS, initialDelay = REFRESH_INTERVAL_MS)
    void refresh() {
        try {
            keys.replaceCreated(store.all(KEYS_MAX));
        } catch (RuntimeException e) {
            // The keys in memory stay in force: an outage of the database does not lock callers out.
            log.warn("cannot re-read the API key table; keeping the keys read before: {}", e.toString());
        }
    }

    private static ApiProblemException taken(String name) {
        return new ApiProblemException(ProblemCode.NAME_TAKEN, "a key named '" + name + "' exists",
                Map.of("name", name));
    }

    /** 32 random bytes, URL-safe Base64: 256 bits, no characters that need quoting in a shell. */
    private static String randomSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
