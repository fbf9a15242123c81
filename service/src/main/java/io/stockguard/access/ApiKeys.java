package io.stockguard.access;

import io.stockguard.platform.Actor;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The configured keys, looked up by the hash of a presented secret. */
final class ApiKeys {

    private final Map<String, ApiKey> byHash = new HashMap<>();

    ApiKeys(AccessProperties properties) {
        properties.apiKeys().forEach(entry -> add(ApiKey.parse(entry, Actor.Kind.API_KEY)));
        properties.adminKeys().forEach(entry -> add(ApiKey.parse(entry, Actor.Kind.ADMIN_KEY)));
    }

    private void add(ApiKey key) {
        ApiKey previous = byHash.putIfAbsent(key.secretHash(), key);
        if (previous != null && previous.actor().kind() != key.actor().kind()) {
            throw new IllegalArgumentException("the same secret is configured as an API key and an admin key ("
                    + previous.actor() + "); give each caller its own key");
        }
    }

    Optional<Actor> find(String presentedSecret) {
        ApiKey key = byHash.get(ApiKey.hash(presentedSecret));
        return key == null ? Optional.empty() : Optional.of(key.actor());
    }
}
