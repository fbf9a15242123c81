package io.stockguard.journal.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.journal.DeadLetters;
import io.stockguard.journal.EventDeadLettered;
import io.stockguard.journal.StockEvent;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Sets an event aside: into the dead-letter table (where it is seen and replayed) and onto the
 * dead-letter topic (for other consumers), with an {@link EventDeadLettered} for the alerts. A
 * table that cannot be written stops the writer from going on (the event must not be lost): the
 * caller retries; the topic is best effort.
 */
final class DeadLetterKeeper {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterKeeper.class);

    private final DeadLetters table;
    private final Producer<String, byte[]> producer;
    private final String topic;
    private final ApplicationEventPublisher events;
    private final MeterRegistry meters;
    private final Clock clock;

    DeadLetterKeeper(DeadLetters table, Producer<String, byte[]> producer, String topic,
            ApplicationEventPublisher events, MeterRegistry meters, Clock clock) {
        this.table = table;
        this.producer = producer;
        this.topic = topic;
        this.events = events;
        this.meters = meters;
        this.clock = clock;
    }

    void keep(ConsumerRecord<String, byte[]> record, StockEvent event, String error, int attempts) {
        String source = record.topic() + "-" + record.partition() + "@" + record.offset();
        String payload = record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8);
        String eventId = event == null ? null : event.eventId();
        String sku = event == null ? record.key() : event.skuId().value();
        table.keep(source, eventId, sku, payload, error, attempts, clock.instant());
        log.error("event {} ({}) set aside as a dead letter after {} attempt(s): {}", source, eventId, attempts,
                error);
        meters.counter("stockguard.journal.dead.letters").increment();
        try {
            producer.send(new ProducerRecord<>(topic, record.key(), record.value()));
        } catch (RuntimeException e) {
            log.warn("dead letter {} not copied to topic {}: {}", source, topic, e.toString());
        }
        events.publishEvent(new EventDeadLettered(source, eventId, sku, error));
    }
}
