package io.stockguard.journal.kafka;

import io.stockguard.journal.PublicTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;

/** Public topics on the journal's brokers, with the journal's durability settings (acks=all, min ISR). */
final class KafkaPublicTopics implements PublicTopics, AutoCloseable {

    private final Producer<String, byte[]> producer;
    private final Admin admin;
    private final KafkaProperties properties;
    private final Set<String> created = ConcurrentHashMap.newKeySet();

    KafkaPublicTopics(Producer<String, byte[]> producer, Admin admin, KafkaProperties properties) {
        this.producer = producer;
        this.admin = admin;
        this.properties = properties;
    }

    @Override
    public void send(String topic, String key, String value, Duration timeout) {
        try {
            if (!created.contains(topic)) {
                create(topic, timeout);
                created.add(topic);
            }
            producer.send(new ProducerRecord<>(topic, key, value.getBytes(StandardCharsets.UTF_8)))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending to " + topic, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Kafka refused the record for " + topic + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not take the record for " + topic + " within " + timeout, e);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }

    private void create(String topic, Duration timeout) throws InterruptedException, TimeoutException {
        NewTopic wanted = new NewTopic(topic, properties.partitions(), properties.replicationFactor())
                .configs(Map.of("min.insync.replicas", Integer.toString(properties.minInsyncReplicas())));
        try {
            admin.createTopics(List.of(wanted)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create topic " + topic + ": " + e.getCause(), e.getCause());
            }
        }
    }
}
