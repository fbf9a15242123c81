package io.stockguard.journal.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testkit.KafkaCluster;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The test kit's Kafka: three brokers with replication 3 keep taking acks=all writes with one broker dead. */
class KafkaClusterIT {

    @Test
    void threeBrokersSurviveTheLossOfOne() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.start(3)) {
            try (Admin admin = Admin.create(kafka.clientProperties())) {
                admin.createTopics(List.of(new NewTopic("t", 2, (short) 3)
                        .configs(java.util.Map.of("min.insync.replicas", "2")))).all().get(30, TimeUnit.SECONDS);
            }
            Properties properties = new Properties();
            properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            properties.put(ProducerConfig.ACKS_CONFIG, "all");
            properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
            properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(),
                    new StringSerializer())) {
                producer.send(new ProducerRecord<>("t", "k", "before")).get(30, TimeUnit.SECONDS);
                kafka.killBroker(2);
                assertThat(producer.send(new ProducerRecord<>("t", "k", "after")).get(30, TimeUnit.SECONDS).offset())
                        .isEqualTo(1);
            }
        }
    }
}
