package io.stockguard.hotstore;

import static io.stockguard.platform.SettingChecks.requireBetween;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The Redis hot path ({@code stockguard.redis.*}), used when {@code stockguard.ledger=redis}.
 *
 * @param url a Lettuce URI: {@code redis://host:6379}, {@code rediss://…} for TLS, or
 *     {@code redis-sentinel://host:26379,host2:26379#mymaster}; with {@code cluster}, one or more
 *     seed nodes separated by commas
 * @param cluster whether the URL names Redis Cluster seed nodes
 * @param commandTimeout how long one Redis command may take before it counts as failed
 * @param connectTimeout how long connecting may take
 * @param lineLifetime how long the hot store remembers an order's line after its last change:
 *     a retry, cancel or confirm within it is answered from Redis alone (at least the longest TTL)
 * @param outboxMax changes a SKU may have waiting for the database before new reservations of it
 *     are refused (fail closed: a journal that cannot keep up must not be outrun)
 * @param openingStale how long an order may stay half-reserved before a retry takes it over
 *     (its caller died mid-way)
 * @param waitReplicas replicas every change must reach (Redis {@code WAIT}, one wait shared by the
 *     changes made meanwhile) before it is acknowledged; while Redis reports fewer connected, the
 *     database sells the SKUs, and Redis again once they are back. Not needed for safety: the history
 *     fence (always on) keeps a failover or restart from selling from a copy that lost writes. 0 (the
 *     default) turns it off; standalone and Sentinel only
 * @param waitTimeout how long one wait for those replicas may take; a wait that runs out, or fails
 *     while Redis still answers, with every replica still connected (a busy machine) degrades nothing
 * @param breaker when to stop calling Redis and serve from the database
 * @param outbox how unapplied changes left by dead requests are swept into the database
 * @param preheat how SKUs are loaded into Redis in bulk
 * @param takeover full tier only: how the database path takes a SKU over from Redis
 * @param username the ACL user the service logs in as (Redis 6+), instead of one in the URL; the
 *     commands and keys it needs are listed in docs/operations.md ("A secured Redis")
 * @param password the password it logs in with (the ACL user's, or {@code requirepass}), instead of
 *     one in the URL, so that it can come from a secret of its own
 * @param sentinelPassword the Sentinels' own password ({@code requirepass} in sentinel.conf), when
 *     it is not the data nodes'
 * @param tls the certificates of a TLS connection ({@code rediss://} or {@code rediss-sentinel://})
 */
@Validated
@ConfigurationProperties("stockguard.redis")
public record RedisProperties(
        @NotBlank @DefaultValue("redis://127.0.0.1:6379") String url,
        @DefaultValue("false") boolean cluster,
        @NotNull @DefaultValue("500ms") Duration commandTimeout,
        @NotNull @DefaultValue("2s") Duration connectTimeout,
        @NotNull @DefaultValue("8d") Duration lineLifetime,
        @Min(100) @Max(10_000_000) @DefaultValue("100000") int outboxMax,
        @NotNull @DefaultValue("30s") Duration openingStale,
        @Min(0) @Max(5) @DefaultValue("0") int waitReplicas,
        @NotNull @DefaultValue("100ms") Duration waitTimeout,
        @Valid @NotNull @DefaultValue Breaker breaker,
        @Valid @NotNull @DefaultValue Outbox outbox,
        @Valid @NotNull @DefaultValue Preheat preheat,
        @Valid @NotNull @DefaultValue Takeover takeover,
        String username,
        String password,
        String sentinelPassword,
        @Valid @NotNull @DefaultValue Tls tls) {

    public RedisProperties {
        boolean tlsUrl = url != null && (url.startsWith("rediss://") || url.startsWith("rediss-sentinel://"));
        if (tls != null && tls.given() && !tlsUrl) {
            throw new IllegalArgumentException("stockguard.redis.tls.* names certificates, but stockguard.redis.url ("
                    + url + ") is not a TLS URL: use rediss:// (or rediss-sentinel://), or leave the certificates out");
        }
        if (sentinelPassword != null && !sentinelPassword.isEmpty() && url != null
                && !url.startsWith("redis-sentinel://") && !url.startsWith("rediss-sentinel://")) {
            throw new IllegalArgumentException("stockguard.redis.sentinel-password is set, but stockguard.redis.url "
                    + "names no Sentinel (redis-sentinel://host:26379#master)");
        }
        requireBetween("stockguard.redis.command-timeout", commandTimeout,
                Duration.ofMillis(10), Duration.ofSeconds(30));
        requireBetween("stockguard.redis.line-lifetime", lineLifetime,
                Duration.ofDays(7).plusHours(1), Duration.ofDays(90));
        requireBetween("stockguard.redis.opening-stale", openingStale, Duration.ofSeconds(5), Duration.ofMinutes(10));
        requireBetween("stockguard.redis.connect-timeout", connectTimeout, Duration.ofMillis(10), Duration.ofMinutes(1));
        requireBetween("stockguard.redis.wait-timeout", waitTimeout, Duration.ofMillis(1), Duration.ofSeconds(10));
    }

    /**
     * @param failureRateThreshold percent of failed calls in the window that opens the breaker
     * @param slidingWindowSize calls the failure rate is computed over
     * @param openFor how long the breaker stays open before it lets probing calls through
     */
    public record Breaker(
            @Min(1) @Max(100) @DefaultValue("50") int failureRateThreshold,
            @Min(5) @Max(10_000) @DefaultValue("20") int slidingWindowSize,
            @NotNull @DefaultValue("3s") Duration openFor) {

        public Breaker {
            requireBetween("stockguard.redis.breaker.open-for", openFor, Duration.ofMillis(100), Duration.ofMinutes(10));
        }
    }

    /**
     * @param sweepInterval how often the outboxes are swept: those of the SKUs loaded into Redis, and
     *     one page (about 1,000 keys) of a slow walk over every key for any the register of loaded
     *     SKUs missed
     * @param minimumAge entries younger than this belong to requests still running; the sweeper
     *     leaves them to their request
     * @param batchSize entries applied per SKU and sweep
     */
    public record Outbox(
            @NotNull @DefaultValue("1s") Duration sweepInterval,
            @NotNull @DefaultValue("10s") Duration minimumAge,
            @Min(1) @Max(10_000) @DefaultValue("500") int batchSize) {

        public Outbox {
            requireBetween("stockguard.redis.outbox.sweep-interval", sweepInterval, Duration.ofMillis(100),
                    Duration.ofMinutes(1));
            requireBetween("stockguard.redis.outbox.minimum-age", minimumAge, Duration.ofSeconds(1),
                    Duration.ofMinutes(10));
        }
    }

    /**
     * @param batchSize SKUs loaded per pipelined batch (200 by default: a flash sale's preheat once brought Redis down sending one SKU at a time)
     * @param pause pause between batches (0 to 10 s), so a preheat never starves Redis
     * @param retryBackoffMax longest wait between attempts when Redis refuses connections
     */
    public record Preheat(
            @Min(1) @Max(10_000) @DefaultValue("200") int batchSize,
            @NotNull @DefaultValue("50ms") Duration pause,
            @NotNull @DefaultValue("5s") Duration retryBackoffMax) {

        public Preheat {
            requireBetween("stockguard.redis.preheat.pause", pause, Duration.ZERO, Duration.ofSeconds(10));
            requireBetween("stockguard.redis.preheat.retry-backoff-max", retryBackoffMax, Duration.ofMillis(100),
                    Duration.ofMinutes(5));
        }
    }

    /**
     * @param delay with Kafka, how long after a SKU is taken over the database starts selling it:
     *     every instance must have stopped selling it from Redis by then (an instance's view of who
     *     sells is at most 200 ms old; a request in flight takes at most the Redis and Kafka
     *     timeouts). At least 2 s. Not waited with the synchronous journal, whose database refuses a
     *     late sale of the hot store itself.
     * @param waitMax how long a request waits for the journal to be applied before it is answered
     *     "unavailable, retry"
     * @param reloadAfter how long after a take-over the hot store may load the SKU again: an instance
     *     that cannot reach Redis and one that can would otherwise pass it back and forth on every
     *     request (0 to 5 min)
     */
    public record Takeover(
            @NotNull @DefaultValue("4s") Duration delay,
            @NotNull @DefaultValue("2s") Duration waitMax,
            @NotNull @DefaultValue("2s") Duration reloadAfter) {

        public Takeover {
            requireBetween("stockguard.redis.takeover.reload-after", reloadAfter, Duration.ZERO, Duration.ofMinutes(5));
            requireBetween("stockguard.redis.takeover.delay", delay, Duration.ofSeconds(2), Duration.ofMinutes(5));
            requireBetween("stockguard.redis.takeover.wait-max", waitMax, Duration.ZERO, Duration.ofSeconds(30));
        }
    }

    /**
     * Certificates of a TLS connection to Redis, as PEM files. Without {@code ca-certificate} the
     * JVM's trusted authorities check the server; the server's name (or IP) must match its
     * certificate either way.
     *
     * @param caCertificate the authority (or authorities) that signed the Redis servers' certificates
     * @param clientCertificate this service's certificate chain, for a Redis that demands one
     *     ({@code tls-auth-clients yes}); with {@code client-key}
     * @param clientKey the private key of {@code client-certificate}, PKCS#8, unencrypted
     */
    public record Tls(String caCertificate, String clientCertificate, String clientKey) {

        public Tls {
            boolean certificate = clientCertificate != null && !clientCertificate.isBlank();
            boolean key = clientKey != null && !clientKey.isBlank();
            if (certificate != key) {
                throw new IllegalArgumentException("stockguard.redis.tls.client-certificate and "
                        + "stockguard.redis.tls.client-key go together: set both, or neither");
            }
            for (String file : new String[] {caCertificate, clientCertificate, clientKey}) {
                if (file != null && !file.isBlank() && !java.nio.file.Files.isReadable(java.nio.file.Path.of(file))) {
                    throw new IllegalArgumentException("stockguard.redis.tls: cannot read " + file);
                }
            }
        }

        boolean given() {
            return (caCertificate != null && !caCertificate.isBlank())
                    || (clientCertificate != null && !clientCertificate.isBlank());
        }
    }

    /** Never the passwords: a record prints every field, and settings end up in logs. */
    @Override
    public String toString() {
        return "RedisProperties[url=" + url.replaceAll("//[^@/]*@", "//***@") + ", cluster=" + cluster
                + ", username=" + username + ", password=" + (password == null ? null : "***")
                + ", sentinelPassword=" + (sentinelPassword == null ? null : "***") + ", tls=" + tls
                + ", waitReplicas=" + waitReplicas + "]";
    }
}
