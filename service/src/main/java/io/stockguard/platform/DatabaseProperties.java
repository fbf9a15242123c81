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
 */
@Validated
@ConfigurationProperties("stockguard.database")
public record DatabaseProperties(@NotNull @DefaultValue("5s") Duration statementTimeout) {

    public DatabaseProperties {
        if (statementTimeout != null && (statementTimeout.compareTo(Duration.ofMillis(100)) < 0
                || statementTimeout.compareTo(Duration.ofMinutes(10)) > 0)) {
            throw new IllegalArgumentException("stockguard.database.statement-timeout must be between 100ms and "
                    + "10m, was " + statementTimeout);
        }
    }
}
