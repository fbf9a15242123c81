package io.stockguard.access;

import io.stockguard.platform.Actor;

/**
 * What a key may call: the reservation and stock API (order services), everything (operators'
 * scripts), or the metrics at {@code /actuator/prometheus} and nothing else (a scraper, which so
 * holds no key that could sell).
 */
public enum KeyKind {
    ORDER_SERVICE(Actor.Kind.API_KEY),
    ADMIN(Actor.Kind.ADMIN_KEY),
    METRICS(Actor.Kind.METRICS_KEY);

    private final Actor.Kind actorKind;

    KeyKind(Actor.Kind actorKind) {
        this.actorKind = actorKind;
    }

    /** Who the audit log names for a caller with such a key. */
    Actor.Kind actorKind() {
        return actorKind;
    }

    /** The kind of key behind an actor of this kind. */
    static KeyKind of(Actor.Kind kind) {
        for (KeyKind key : values()) {
            if (key.actorKind == kind) {
                return key;
            }
        }
        throw new IllegalArgumentException("no key has actors of kind " + kind);
    }
}
