package io.stockguard.journal.kafka;

import io.stockguard.journal.EventCodec;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.SynchronousJournal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The full tier's journal: a change is acknowledged once every in-sync replica of its partition
 * has it ({@code acks=all}, idempotent producer); the database writer applies it later. When
 * Kafka cannot take it in time, the change is journaled the standard tier's way instead, straight
 * into the database (slower, still durable before the answer); a breaker keeps later requests
 * from waiting on a Kafka that is down. Only when both fail is the change not acknowledged, and
 * then it may still be in Kafka: the caller must treat it as possibly recorded.
 *
 * <p>Each send is observed as {@code stockguard.journal.send} (a producer span of the request's
 * trace when tracing is on), and its trace context travels in every record's {@code traceparent}
 * header, so the database writer's apply joins the request's trace (see {@link JournalWriter}).
 */
final class KafkaJournal implements DurableJournal {

    private static final Logger log = LoggerFactory.getLogger(KafkaJournal.class);
    static final String SEND_OBSERVATION = "stockguard.journal.send";

    private final Producer<String, byte[]> producer;
    private final EventCodec codec;
    private final EventPartitions partitions;
    private final DurableJournal database;
    private final CircuitBreaker breaker;
    private final long produceTimeoutNanos;
    private final MeterRegistry meters;
    private final Timer produceLatency;
    private final ObservationRegistry observations;

    KafkaJournal(Producer<String, byte[]> producer, EventCodec codec, EventPartitions partitions,
            DurableJournal database, CircuitBreaker breaker, KafkaProperties properties, MeterRegistry meters,
            ObservationRegistry observations) {
        this.observations = observations;
        this.producer = producer;
        this.codec = codec;
        this.partitions = partitions;
        this.database = database;
        this.breaker = breaker;
        this.produceTimeoutNanos = properties.produceTimeout().toNanos();
        this.meters = meters;
        this.produceLatency = Timer.builder("stockguard.journal.produce").description(
                "time until Kafka acknowledged one request's events").publishPercentileHistogram().register(meters);
    }

    @Override
    public List<EventOutcome> record(List<StockEvent> events) {
        if (events.isEmpty()) {
            return List.of();
        }
        if (!breaker.tryAcquirePermission()) {
            return toDatabase(events, null);
        }
        long started = System.nanoTime();
        try {
            send(events, started);
            long took = System.nanoTime() - started;
            breaker.onSuccess(took, TimeUnit.NANOSECONDS);
            produceLatency.record(took, TimeUnit.NANOSECONDS);
            meters.counter("stockguard.journal.path", "path", "kafka").increment(events.size());
            return Collections.nCopies(events.size(), EventOutcome.Settled.QUEUED);
        } catch (KafkaException | TimeoutException | ExecutionException e) {
            breaker.onError(System.nanoTime() - started, TimeUnit.NANOSECONDS, e);
            log.warn("Kafka did not take {} event(s) in time ({}); journaling them to the database", events.size(),
                    e.toString());
            return toDatabase(events, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JournalUnavailableException("interrupted while waiting for Kafka", true, e);
        }
    }

    private void send(List<StockEvent> events, long started) throws ExecutionException, TimeoutException,
            InterruptedException {
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>(events.size());
        for (StockEvent event : events) {
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(partitions.topic(),
                    partitions.of(event.skuId()), event.skuId().value(), codec.encode(event));
            if (event.traceId() != null) {
                record.headers().add(new RecordHeader("trace-id",
                        event.traceId().value().getBytes(StandardCharsets.UTF_8)));
            }
            records.add(record);
        }
        // Starting the observation writes its trace context into every record (see inject).
        Observation observation = Observation.createNotStarted(SEND_OBSERVATION, () -> {
            SenderContext<List<ProducerRecord<String, byte[]>>> context = new SenderContext<>(KafkaJournal::inject,
                    Kind.PRODUCER);
            context.setCarrier(records);
            context.setRemoteServiceName("kafka");
            return context;
        }, observations).highCardinalityKeyValue("messaging.destination.name", partitions.topic())
                .highCardinalityKeyValue(SynchronousJournal.EVENTS_KEY, Integer.toString(events.size())).start();
        try {
            List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
            for (ProducerRecord<String, byte[]> record : records) {
                sent.add(producer.send(record));
            }
            for (Future<RecordMetadata> future : sent) {
                long left = produceTimeoutNanos - (System.nanoTime() - started);
                future.get(Math.max(0, left), TimeUnit.NANOSECONDS);
            }
        } catch (Exception e) {
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
    }

    /** Sets a trace context header (W3C {@code traceparent}) on every record of one send. */
    private static void inject(List<ProducerRecord<String, byte[]>> records, String key, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        for (ProducerRecord<String, byte[]> record : records) {
            record.headers().remove(key).add(key, bytes);
        }
    }

    /** The standard tier's way: applied to the database before the answer. */
    private List<EventOutcome> toDatabase(List<StockEvent> events, Exception kafkaFailure) {
        try {
            List<EventOutcome> outcomes = database.record(events);
            meters.counter("stockguard.journal.path", "path", "database").increment(events.size());
            return outcomes;
        } catch (JournalUnavailableException e) {
            // Kafka may have taken the events after all (a lost acknowledgement), so they may be
            // applied later: the caller must not undo them as if they never happened.
            boolean maybeInKafka = kafkaFailure != null;
            throw new JournalUnavailableException("neither Kafka nor the database took the events: "
                    + e.getMessage(), maybeInKafka || e.maybeRecorded(), e);
        }
    }
}
