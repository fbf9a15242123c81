package io.stockguard.reservation;

import static io.stockguard.platform.SettingChecks.requireBetween;

import jakarta.validation.Valid;
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
 * @param coalescing how the database ledger combines concurrent reservations into one transaction
 * @param extension whether and how far a held order's hold may be extended
 * @param availabilityMaxAge how old a product page's stock read ({@code GET
 *     /api/v1/skus/{id}/availability}) may be: queries of a SKU within this long of a store read
 *     share it, so the second wave of a sale (shoppers refreshing a sold-out page) costs the store
 *     one read per SKU and period instead of one per query. A SKU sold out through any instance
 *     reads sold out on every instance within this long plus one read; a change acknowledged by
 *     this instance shows at once on it. 0 reads the store every time; at most 1s. The full stock
 *     read ({@code GET /api/v1/skus/{id}}) is always read live
 */
@Validated
@ConfigurationProperties("stockguard.reservation")
public record ReservationProperties(
        @NotNull @DefaultValue("15m") Duration defaultTtl,
        @NotNull @DefaultValue("1s") Duration expirySweepInterval,
        @Min(1) @Max(10_000) @DefaultValue("500") int expiryBatchSize,
        @Min(1) @Max(10) @DefaultValue("3") int lockRetries,
        @Min(1_000) @Max(10_000_000) @DefaultValue("1000000") int bucketCacheSize,
        @NotNull @Valid @DefaultValue Coalescing coalescing,
        @NotNull @Valid @DefaultValue Extension extension,
        @NotNull @DefaultValue("50ms") Duration availabilityMaxAge) {

    public ReservationProperties {
        requireBetween("stockguard.reservation.availability-max-age", availabilityMaxAge, Duration.ZERO,
                Duration.ofSeconds(1));
        requireBetween("stockguard.reservation.default-ttl", defaultTtl, Duration.ofSeconds(1), Duration.ofDays(7));
        requireBetween("stockguard.reservation.expiry-sweep-interval", expirySweepInterval,
                Duration.ofMillis(100), Duration.ofMinutes(10));
    }

    /**
     * Hold extension ({@code stockguard.reservation.extension.*}): a customer in a slow payment flow
     * may have an order's hold extended once, while it is held and before it ends.
     *
     * @param enabled whether holds may be extended at all; when false every extension is refused
     *     409 EXTENSION_LIMIT
     * @param holdMax the longest a hold may last once extended, counted from when the reservation
     *     was made; a request for longer is refused 400 INVALID_REQUEST. Stock held by an unpaid
     *     order is stock nobody else can buy: keep it short
     */
    public record Extension(
            @DefaultValue("true") boolean enabled,
            @NotNull @DefaultValue("1h") Duration holdMax) {

        public Extension {
            requireBetween("stockguard.reservation.extension.hold-max", holdMax, Duration.ofSeconds(1),
                    Duration.ofDays(7));
        }
    }

    /**
     * Hot-row coalescing of the database ledger ({@code stockguard.reservation.coalescing.*}).
     *
     * @param enabled combine concurrent single-line reservations into one transaction per stripe
     * @param batchSizeMax most reservations one transaction serves; bounds its lock time
     * @param stripes independent combiners; SKUs hash onto them, and each runs one transaction at a
     *     time for all the SKUs of its stripe. Few stripes put many quiet SKUs into one commit (on a
     *     100,000-SKU catalogue at 64 clients, 4 stripes served about twice the reservations of 64,
     *     whose transactions mostly held one reservation each and fought for the database's CPU);
     *     many stripes keep a SKU whose rows another transaction holds locked from delaying more
     *     SKUs. More stripes than connections in the pool buys nothing.
     * @param waitMax how long a reservation may wait for a batch to take it before it is answered
     *     503 UNAVAILABLE (certainly not applied)
     */
    public record Coalescing(
            @DefaultValue("true") boolean enabled,
            @Min(1) @Max(10_000) @DefaultValue("256") int batchSizeMax,
            @Min(1) @Max(4_096) @DefaultValue("4") int stripes,
            @NotNull @DefaultValue("5s") Duration waitMax) {

        public Coalescing {
            requireBetween("stockguard.reservation.coalescing.wait-max", waitMax,
                    Duration.ofMillis(10), Duration.ofMinutes(1));
        }
    }
}
