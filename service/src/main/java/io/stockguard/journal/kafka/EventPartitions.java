package io.stockguard.journal.kafka;

import io.stockguard.stock.SkuId;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

/**
 * Which partition of the event topic holds a SKU's events: chosen here, not by the producer, so
 * that the service knows where to look when it must wait for one SKU's events to be applied. The
 * same hash as Kafka's default partitioner for a keyed record.
 */
record EventPartitions(String topic, int count) {

    EventPartitions {
        if (count < 1) {
            throw new IllegalArgumentException("a topic has at least one partition");
        }
    }

    int of(SkuId sku) {
        return Utils.toPositive(Utils.murmur2(sku.value().getBytes(StandardCharsets.UTF_8))) % count;
    }

    TopicPartition partitionOf(SkuId sku) {
        return new TopicPartition(topic, of(sku));
    }
}
