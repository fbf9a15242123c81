package io.stockguard.journal.kafka;

import io.stockguard.journal.EventCodec;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.testing.RunningService;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Events put on a full-tier service's topic by hand, in its wire form, for tests outside this package. */
public final class JournalFixtures {

    private static final EventCodec CODEC = new EventCodec();
    private static final long SEND_TIMEOUT_SECONDS = 30;

    private JournalFixtures() {
    }

    public static KafkaProducer<String, byte[]> producer(String bootstrapServers) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer());
    }

    /** Sends a reservation of {@code qty} units of the SKU's bucket 0 for the order; returns its event id. */
    public static String sendReserve(RunningService service, Producer<String, byte[]> producer, String sku,
            String orderId, long qty) throws ExecutionException, InterruptedException, TimeoutException {
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        StockEvent event = new StockEvent(UUID.randomUUID().toString(), SkuId.of(sku), 0, StockOp.RESERVE,
                OrderId.of(orderId), null, qty, -qty, qty, 0, null, "test", at, null, null, "fingerprint",
                at.plus(Duration.ofMinutes(15)), null, null);
        EventPartitions partitions = service.bean(EventPartitions.class);
        producer.send(new ProducerRecord<>(partitions.topic(), partitions.of(event.skuId()), sku, CODEC.encode(event)))
                .get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return event.eventId();
    }
}
