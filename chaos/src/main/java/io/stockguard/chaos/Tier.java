package io.stockguard.chaos;

import java.util.Locale;

/** The three ways StockGuard runs, as the chaos suite names them on its command line. */
public enum Tier {
    /** The embedded tier: the database is the hot path, one instance, PostgreSQL inside its data folder. */
    DB("embedded"),
    /** The standard tier: Redis in front of the database, the journal committed by the service. */
    REDIS("standard"),
    /** The full tier: Redis, a Kafka journal applied to the database, two instances. */
    KAFKA("full");

    private final String label;

    Tier(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public boolean hasRedis() {
        return this != DB;
    }

    public static Tier parse(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }

    public String option() {
        return name().toLowerCase(Locale.ROOT);
    }
}
