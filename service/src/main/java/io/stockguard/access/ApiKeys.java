package io.stockguard.access;

import io.stockguard.platform.Actor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The keys callers may present, looked up by the hash of a presented secret: the configured keys,
 * fixed while the service runs, and the unrevoked keys created from the console, replaced as a
 * whole whenever the table is read again.
 */
final class ApiKeys {

    private final Map<String, ApiKey> configured = new HashMap<>();
    private volatile Map<String, ApiKey> created = Map.of();

    ApiKeys(AccessProperties properties) {
        properties.apiKeys().forEach(entry -> add(ApiKey.parse(entry, Actor.Kind.API_KEY)));
        properties.adminKeys().forEach(entry -> add(ApiKey.parse(entry, Actor.Kind.ADMIN_KEY)));
        properties.metricsKeys().forEach(entry -> add(ApiKey.parse(entry, Actor.Kind.METRICS_KEY)));
    }

    private void add(ApiKey key) {
        ApiKey previous = configured.putIfAbsent(key.secretHash(), key);
        if (previous != null && previous.actor().kind() != key.actor().kind()) {
            throw new IllegalArgumentException("the same secret is configured as keys of two kinds ("
                    + previous.actor() + ", " + key.actor() + "); give each caller its own key");
        }
    }

    Optional<Actor> find(String presentedSecret) {
        String hash = ApiKey.hash(presentedSecret);
        ApiKey key = configured.get(hash);
        if (key == null) {
            key = created.get(hash);
        }
        return key == null ? Optional.empty() : Optional.of(key.actor());
    }

    /** The configured keys by name: a key created from the console may not take one of these names. */
    Map<String, KeyKind> configuredKinds() {
        Map<String, KeyKind> kinds = new java.util.TreeMap<>();
        configured.values().forEach(key -> kinds.put(key.actor().name(), KeyKind.of(key.actor().kind())));
        return kinds;
    }

    /** Replaces the keys created from the console with the unrevoked ones of the table. */
    void replaceCreated(List<KeyStore.StoredKey> stored) {
        Map<String, ApiKey> next = new HashMap<>();
        for (KeyStore.StoredKey key : stored) {
            if (!key.revoked()) {
                next.put(key.secretHash(), new ApiKey(new Actor(key.kind().actorKind(), key.name()),
                        key.secretHash()));
            }
        }
        created = Map.copyOf(next);
    }
}
