package io.stockguard.platform;

import java.io.Serial;
import java.io.Serializable;
import java.util.Objects;

/**
 * Who asked for a change: an order service key, an admin key, a person, or the system itself (a
 * metrics key changes nothing, but is a caller too).
 * Recorded with every audited action, so the name never contains a secret. Serializable because a
 * person's actor is the principal of their console session, which is stored in the database for
 * every instance to read (a record is read back through its constructor, so the checks hold).
 */
public record Actor(Kind kind, String name) implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    public static final Actor SYSTEM = new Actor(Kind.SYSTEM, "stockguard");

    public Actor {
        Objects.requireNonNull(kind, "kind");
        if (name == null || name.isBlank() || name.length() > 100) {
            throw new IllegalArgumentException("an actor name has 1 to 100 characters");
        }
    }

    public enum Kind { API_KEY, ADMIN_KEY, METRICS_KEY, PERSON, SYSTEM }

    @Override
    public String toString() {
        return kind.name().toLowerCase().replace('_', '-') + ":" + name;
    }
}
