package io.stockguard.platform;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Database settings of StockGuard itself ({@code stockguard.database.*}); the connection is
 * configured with the usual {@code spring.datasource.*}.
 *
 * @param statementTimeout longest any statement may run before the database cancels it and the
 *     request is answered 503
 * @param socketTimeout longest the driver waits for the database to say anything at all before it
 *     gives the connection up and the request is answered 503: what ends a call to a database that
 *     stopped answering without closing its connections (paused, or a network that drops packets),
 *     which its own statement timeout cannot; at least 1 s longer than {@code statement-timeout}
 *     (so a statement the database cancels is answered first) and than
 *     {@code stockguard.reconciliation.ledger-check-timeout}, checked at start. A
 *     {@code socketTimeout} in the JDBC URL or {@code spring.datasource.hikari.data-source-properties}
 *     is kept
 * @param pooler what stands between the service and a PostgreSQL: {@code none} for a direct
 *     connection or a session-pooling proxy, where the statement timeout is set once on each
 *     connection; {@code transaction} for a transaction-pooling one (PgBouncer's
 *     {@code pool_mode = transaction}, and the like), which hands each transaction whichever server
 *     connection is free, so a setting made once per connection would bound some other client's
 *     statements and not this service's: then every transaction sets its own
 *     ({@code SET LOCAL statement_timeout}) and a statement outside one gets the driver's query
 *     timeout. MariaDB's timeout travels with each statement either way. The URL and the
 *     migrations behind such a pooler: docs/operations.md, "Behind PgBouncer or another connection
 *     pooler"
 */
@Validated
@ConfigurationProperties("stockguard.database")
public record DatabaseProperties(@NotNull @DefaultValue("5s") Duration statementTimeout,
        @NotNull @DefaultValue("8s") Duration socketTimeout, @NotNull @DefaultValue("none") Pooler pooler) {

    /** What pools connections between the service and the database; see {@code pooler} above. */
    public enum Pooler {
        /** Nothing, or a pooler that gives a client one server connection for its whole session. */
        NONE,
        /** A pooler that gives a client a server connection for one transaction at a time. */
        TRANSACTION
    }

    /** What a cancelled statement's answer is given to arrive in, on a busy machine. */
    public static final Duration CANCEL_ANSWER_MIN = Duration.ofSeconds(1);

    public DatabaseProperties {
        if (statementTimeout != null && (statementTimeout.compareTo(Duration.ofMillis(100)) < 0
                || statementTimeout.compareTo(Duration.ofMinutes(10)) > 0)) {
            throw new IllegalArgumentException("stockguard.database.statement-timeout must be between 100ms and "
                    + "10m, was " + statementTimeout);
        }
        if (statementTimeout != null && socketTimeout != null
                && socketTimeout.compareTo(statementTimeout.plus(CANCEL_ANSWER_MIN)) < 0) {
            throw new IllegalArgumentException("stockguard.database.socket-timeout must be at least "
                    + CANCEL_ANSWER_MIN.toSeconds() + "s longer than stockguard.database.statement-timeout ("
                    + statementTimeout + "), so a statement the database cancels is answered before the "
                    + "connection is given up; was " + socketTimeout);
        }
        if (socketTimeout != null && socketTimeout.compareTo(Duration.ofMinutes(15)) > 0) {
            throw new IllegalArgumentException("stockguard.database.socket-timeout must be at most 15m, was "
                    + socketTimeout);
        }
    }
}
