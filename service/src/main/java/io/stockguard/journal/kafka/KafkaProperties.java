package io.stockguard.journal.kafka;

import static io.stockguard.platform.SettingChecks.requireBetween;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The full tier's journal ({@code stockguard.kafka.*}, used when {@code stockguard.journal=kafka}).
 *
 * @param bootstrapServers the brokers, {@code host:port} separated by commas
 * @param properties Kafka client settings passed as written to every Kafka client of the service
 *     (producer, consumer, admin): security and TLS such as {@code security.protocol},
 *     {@code sasl.mechanism}, {@code sasl.jaas.config}, {@code ssl.truststore.location}, or tuning. In
 *     the environment one variable per key: {@code STOCKGUARD_KAFKA_PROPERTIES_SASL_JAAS_CONFIG} sets
 *     {@code sasl.jaas.config}. A key the journal's guarantees depend on, or that another
 *     {@code stockguard.kafka.*} setting decides ({@code acks}, {@code enable.idempotence},
 *     {@code group.id}, {@code enable.auto.commit}, {@code isolation.level}, the (de)serializers, …),
 *     stops the service at start-up; operations.md lists them
 * @param topic the stock event topic; keyed and partitioned by SKU, so one SKU's events keep their order
 * @param partitions partitions of the topic when the service creates it (an existing topic is used as it is)
 * @param replicationFactor replicas of each partition when the service creates the topics (3 in
 *     production; 1 for a single-broker trial)
 * @param minInsyncReplicas replicas that must have an event before it is acknowledged ({@code acks=all})
 * @param produceTimeout longest wait for Kafka to acknowledge one reservation's events; after it the
 *     reservation goes to the synchronous database journal instead
 * @param requestTimeout one request to a broker (at most the produce timeout)
 * @param linger how long the producer waits to fill a batch; 0 sends at once, and under load batches
 *     fill by themselves while earlier sends are in flight (a wait of 1 ms made one connection's
 *     reservations take 3-4 ms instead of 1.4, and gained nothing at 64)
 * @param breaker when to stop trying Kafka for a while and journal to the database directly
 * @param writer how events are applied to the database
 * @param backlog when the service degrades on purpose because the database falls behind
 */
@Validated
@ConfigurationProperties("stockguard.kafka")
public record KafkaProperties(
        @NotBlank @DefaultValue("127.0.0.1:9092") String bootstrapServers,
        Map<String, String> properties,
        @NotBlank @DefaultValue("stockguard.stock-events") String topic,
        @Min(1) @Max(1_000) @DefaultValue("12") int partitions,
        @Min(1) @Max(5) @DefaultValue("3") short replicationFactor,
        @Min(1) @Max(5) @DefaultValue("2") int minInsyncReplicas,
        @NotNull @DefaultValue("2s") Duration produceTimeout,
        @NotNull @DefaultValue("1s") Duration requestTimeout,
        @NotNull @DefaultValue("0ms") Duration linger,
        @Valid @NotNull @DefaultValue Breaker breaker,
        @Valid @NotNull @DefaultValue Writer writer,
        @Valid @NotNull @DefaultValue Backlog backlog) {

    public KafkaProperties {
        properties = properties == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        List<String> refusals = KafkaClients.refusals(properties);
        if (!refusals.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", refusals));
        }
        if (minInsyncReplicas > replicationFactor) {
            throw new IllegalArgumentException("stockguard.kafka.min-insync-replicas (" + minInsyncReplicas
                    + ") must not exceed stockguard.kafka.replication-factor (" + replicationFactor + ")");
        }
        requireBetween("stockguard.kafka.produce-timeout", produceTimeout,
                Duration.ofMillis(100), Duration.ofSeconds(60));
        requireBetween("stockguard.kafka.request-timeout", requestTimeout, Duration.ofMillis(50), produceTimeout);
        requireBetween("stockguard.kafka.linger", linger, Duration.ZERO, Duration.ofMillis(100));
        if (writer != null && writer.consumers() > partitions) {
            throw new IllegalArgumentException("stockguard.kafka.writer.consumers (" + writer.consumers()
                    + ") must not exceed stockguard.kafka.partitions (" + partitions + "): a consumer beyond the "
                    + "partitions would have nothing to apply");
        }
        if (requestTimeout.plus(linger).compareTo(produceTimeout) > 0) {
            throw new IllegalArgumentException("stockguard.kafka.request-timeout + linger must not exceed "
                    + "stockguard.kafka.produce-timeout");
        }
    }

    /** Names the passthrough keys but never their values, which may hold a password ({@code sasl.jaas.config}). */
    @Override
    public String toString() {
        return "KafkaProperties[bootstrapServers=" + bootstrapServers + ", properties=" + properties.keySet()
                + "=***, topic=" + topic + ", partitions=" + partitions + ", replicationFactor=" + replicationFactor
                + ", minInsyncReplicas=" + minInsyncReplicas + ", produceTimeout=" + produceTimeout
                + ", requestTimeout=" + requestTimeout + ", linger=" + linger + ", breaker=" + breaker + ", writer="
                + writer + ", backlog=" + backlog + "]";
    }

    /** The dead-letter topic: the event topic's name with {@code .dlt}. */
    public String deadLetterTopic() {
        return topic + ".dlt";
    }

    /**
     * @param failureRateThreshold percent of failed produces in the window that opens the breaker
     * @param slidingWindowSize produces the failure rate is computed over
     * @param openFor how long reservations journal to the database before Kafka is tried again
     */
    public record Breaker(
            @Min(1) @Max(100) @DefaultValue("50") int failureRateThreshold,
            @Min(2) @Max(10_000) @DefaultValue("10") int slidingWindowSize,
            @NotNull @DefaultValue("5s") Duration openFor) {
    }

    /**
     * @param groupId the consumer group of the database writers of all instances
     * @param consumers database writers of this instance, each a consumer of the group on a thread
     *     and a database connection of its own: the topic's partitions are shared among the writers
     *     of every instance and applied in parallel. More than the topic's partitions (across all
     *     instances) leaves the rest idle; each one more costs a database connection while it applies
     * @param batchEventsMax events applied in one database transaction
     * @param pollTimeout longest wait for events before an empty poll
     * @param attemptsBeforeDeadLetter attempts at an event that fails (not because the database is
     *     down) before it goes to the dead letters
     * @param retryBackoffMax longest pause between attempts while the database is unavailable
     */
    public record Writer(
            @NotBlank @DefaultValue("stockguard-writer") String groupId,
            @Min(1) @Max(64) @DefaultValue("4") int consumers,
            @Min(1) @Max(10_000) @DefaultValue("500") int batchEventsMax,
            @NotNull @DefaultValue("200ms") Duration pollTimeout,
            @Min(1) @Max(10) @DefaultValue("3") int attemptsBeforeDeadLetter,
            @NotNull @DefaultValue("2s") Duration retryBackoffMax) {
    }

    /**
     * @param degradeAbove unapplied events (consumer lag) above which new reservations are throttled
     * @param recoverBelow lag below which the throttle is lifted again (below {@code degradeAbove})
     * @param reservationsPerSecond reservations per second and instance while degraded
     * @param checkInterval how often the lag is measured
     */
    public record Backlog(
            @Min(1) @DefaultValue("100000") long degradeAbove,
            @Min(0) @DefaultValue("50000") long recoverBelow,
            @Min(1) @Max(1_000_000) @DefaultValue("200") int reservationsPerSecond,
            @NotNull @DefaultValue("1s") Duration checkInterval) {

        public Backlog {
            if (recoverBelow >= degradeAbove) {
                throw new IllegalArgumentException("stockguard.kafka.backlog.recover-below (" + recoverBelow
                        + ") must be below degrade-above (" + degradeAbove + ")");
            }
        }
    }
}
