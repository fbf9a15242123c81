package io.stockguard.journal.kafka;

import io.stockguard.journal.EventDeadLetterReplay;
import io.stockguard.journal.EventCodec;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.stockguard.audit.AuditLog;
import io.stockguard.journal.DeadLetterReplay;
import io.stockguard.journal.DeadLetters;
import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventApplier;
import io.stockguard.journal.JournalProgress;
import io.stockguard.journal.SynchronousJournal;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionTemplate;

/** Wires the full tier's journal ({@code stockguard.journal=kafka}). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "stockguard.journal", havingValue = "kafka")
class KafkaJournalConfiguration {

    private static final Logger log = LoggerFactory.getLogger(KafkaJournalConfiguration.class);
    private static final Duration STARTUP_CALL_TIMEOUT = Duration.ofSeconds(10);
    /** Events of concurrent requests group-committed by the database fallback journal. */
    private static final int FALLBACK_BATCH_EVENTS_MAX = 2_000;

    /** The configuration of every Kafka client below, with the operator's passthrough properties merged in. */
    @Bean
    KafkaClients kafkaClients(KafkaProperties properties) {
        KafkaClients clients = new KafkaClients(properties);
        if (!clients.unknownKeys().isEmpty()) {
            log.warn("{} names keys no Kafka client knows (passed on all the same; misspelt?): {}",
                    KafkaClients.PREFIX, clients.unknownKeys());
        }
        return clients;
    }

    @Bean(destroyMethod = "close")
    Admin kafkaAdmin(KafkaClients clients) {
        return Admin.create(clients.admin());
    }

    /**
     * The event topic, created when missing (and its dead-letter topic). An existing topic is used
     * with the partitions it has; a Kafka down at start-up leaves the configured count.
     */
    @Bean
    EventPartitions eventPartitions(Admin kafkaAdmin, KafkaProperties properties) {
        Map<String, String> configs = Map.of("min.insync.replicas", Integer.toString(properties.minInsyncReplicas()));
        List<NewTopic> topics = List.of(
                new NewTopic(properties.topic(), properties.partitions(), properties.replicationFactor()).configs(configs),
                new NewTopic(properties.deadLetterTopic(), 1, properties.replicationFactor()).configs(configs));
        try {
            for (var entry : kafkaAdmin.createTopics(topics).values().entrySet()) {
                try {
                    entry.getValue().get(STARTUP_CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
            int count = kafkaAdmin.describeTopics(List.of(properties.topic())).allTopicNames()
                    .get(STARTUP_CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(properties.topic())
                    .partitions().size();
            return new EventPartitions(properties.topic(), count);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the Kafka topics", e);
        } catch (ExecutionException | TimeoutException e) {
            log.error("Kafka at {} did not answer at start-up ({}); assuming topic {} has {} partitions. Reservations "
                    + "are journaled to the database until Kafka answers.", properties.bootstrapServers(), e,
                    properties.topic(), properties.partitions());
            return new EventPartitions(properties.topic(), properties.partitions());
        }
    }

    /** Its own producer: a slow public topic never holds up the journal's sends. */
    @Bean(destroyMethod = "close")
    KafkaPublicTopics kafkaPublicTopics(KafkaClients clients, Admin kafkaAdmin, KafkaProperties properties) {
        return new KafkaPublicTopics(new KafkaProducer<>(clients.producer(), new StringSerializer(),
                new ByteArraySerializer()), kafkaAdmin, properties);
    }

    @Bean(destroyMethod = "close")
    Producer<String, byte[]> kafkaProducer(KafkaClients clients) {
        return new KafkaProducer<>(clients.producer(), new StringSerializer(), new ByteArraySerializer());
    }

    @Bean
    CircuitBreaker kafkaBreaker(KafkaProperties properties, MeterRegistry meters) {
        CircuitBreakerConfig config = CircuitBreakerConfig.custom()
                .failureRateThreshold(properties.breaker().failureRateThreshold())
                .slidingWindowSize(properties.breaker().slidingWindowSize())
                .minimumNumberOfCalls(Math.min(5, properties.breaker().slidingWindowSize()))
                .waitDurationInOpenState(properties.breaker().openFor())
                .permittedNumberOfCallsInHalfOpenState(2)
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .build();
        CircuitBreakerRegistry registry = CircuitBreakerRegistry.of(config);
        TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(registry).bindTo(meters);
        CircuitBreaker breaker = registry.circuitBreaker("kafka");
        breaker.getEventPublisher().onStateTransition(event -> log.warn("Kafka circuit breaker: {}",
                event.getStateTransition()));
        return breaker;
    }

    @Bean
    DurableJournal kafkaJournal(Producer<String, byte[]> kafkaProducer, EventPartitions eventPartitions,
            EventApplier applier, CircuitBreaker kafkaBreaker, KafkaProperties properties, MeterRegistry meters,
            ObservationRegistry observations) {
        DurableJournal database = new SynchronousJournal(applier, FALLBACK_BATCH_EVENTS_MAX, properties.produceTimeout(),
                observations);
        return new KafkaJournal(kafkaProducer, new EventCodec(), eventPartitions, database, kafkaBreaker, properties,
                meters, observations);
    }

    @Bean
    JournalWriter journalWriter(KafkaProperties properties, KafkaClients clients, EventApplier applier,
            DeadLetters deadLetters, Producer<String, byte[]> kafkaProducer, ApplicationEventPublisher events,
            MeterRegistry meters, Clock clock, ObservationRegistry observations) {
        DeadLetterKeeper keeper = new DeadLetterKeeper(deadLetters, kafkaProducer, properties.deadLetterTopic(), events,
                meters, clock);
        return new JournalWriter(
                () -> new KafkaConsumer<>(clients.consumer(), new StringDeserializer(), new ByteArrayDeserializer()),
                properties.topic(), applier, new EventCodec(), keeper, properties.writer(), meters, clock,
                observations);
    }

    @Bean
    DeadLetterReplay deadLetterReplay(DeadLetters deadLetters, EventApplier applier, AuditLog audit,
            TransactionTemplate transactions, Clock clock) {
        return new EventDeadLetterReplay(deadLetters, applier, new EventCodec(), audit, transactions, clock);
    }

    @Bean
    JournalProgress kafkaProgress(Admin kafkaAdmin, EventPartitions eventPartitions, KafkaProperties properties,
            MeterRegistry meters, ApplicationEventPublisher events) {
        return new KafkaProgress(kafkaAdmin, eventPartitions, properties.writer().groupId(), properties.backlog(),
                meters, events);
    }
}
