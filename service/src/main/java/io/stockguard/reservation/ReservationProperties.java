package io.stockguard.reservation;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the reservation hot path ({@code stockguard.reservation.*}).
 *
 * @param defaultTtl how long an unconfirmed reservation holds stock when the request names no TTL
 * @param expirySweepInterval how often the sweeper looks for reservations past their TTL; a
 *     reservation's stock returns at most this long after it expires
 * @param expiryBatchSize reservations expired per sweep; more wait for the next sweep
 * @param lockRetries attempts at an operation that lost a lock race (deadlock, lock timeout)
 *     before it is answered UNAVAILABLE
 * @param bucketCacheSize SKUs whose bucket count is cached; the count never changes once a SKU
 *     exists, so the cache is only a bound on memory
 */
@Validated
@ConfigurationProperties("stockguard.reservation")
public record ReservationProperties(
        @NotNull @DefaultValue("15m") Duration defaultTtl,
        @NotNull @DefaultValue("1s") Duration expirySweepInterval,
        @Min(1) @Max(10_000) @DefaultValue("500") int expiryBatchSize,
        @Min(1) @Max(10) @DefaultValue("3") int lockRetries,
        @Min(1_000) @Max(10_000_000) @DefaultValue("1000000") int bucketCacheSize) {

    public ReservationProperties {
        requireBetween("default-ttl", defaultTtl, Duration.ofSeconds(1), Duration.ofDays(7));
        requireBetween("expiry-sweep-interval", expirySweepInterval, Duration.ofMillis(100), Duration.ofMinutes(10));
    }

    private static void requireBetween(String name, Duration value, Duration min, Duration max) {
        if (value != null && (value.compareTo(min) < 0 || value.compareTo(max) > 0)) {
            throw new IllegalArgumentException("stockguard.reservation." + name + " must be between " + min + " and "
                    + max + ", was " + value);
        }
    }
}
