package io.stockguard.platform;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which tier this instance runs: where reservations are decided ({@code stockguard.ledger}) and
 * what makes a change durable before it is acknowledged ({@code stockguard.journal}). Bound here
 * only so that a misspelt value stops the service at start instead of silently choosing the
 * default; the ledgers and journals select themselves on the same properties.
 *
 * @param ledger where reservations are decided: {@code database} in the database's rows (the database
 *     tier, embedded or external), or {@code redis} in Redis in front of the database (the standard
 *     and full tiers)
 * @param journal what a change must reach before it is acknowledged: {@code database} a database
 *     commit (the database and standard tiers), or {@code kafka} a Kafka write acknowledged by all
 *     in-sync replicas, applied to the database in batches (the full tier; needs
 *     {@code stockguard.ledger=redis})
 */
@ConfigurationProperties("stockguard")
public record TierProperties(@DefaultValue("database") Ledger ledger, @DefaultValue("database") Journal journal) {

    public TierProperties {
        if (journal == Journal.KAFKA && ledger != Ledger.REDIS) {
            throw new IllegalArgumentException("stockguard.journal=kafka journals the hot store's changes: it needs "
                    + "stockguard.ledger=redis");
        }
    }

    /** Where reservations are decided. */
    public enum Ledger {
        /** The database's bucket rows (embedded and small tiers). */
        DATABASE,
        /** Redis in front of the database (standard and full tiers). */
        REDIS
    }

    /** What a change must reach before it is acknowledged. */
    public enum Journal {
        /** A database commit (embedded, small and standard tiers). */
        DATABASE,
        /** A Kafka write acknowledged by all in-sync replicas (full tier); applied to the database in batches. */
        KAFKA
    }
}
