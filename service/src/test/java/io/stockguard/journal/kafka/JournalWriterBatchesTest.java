package io.stockguard.journal.kafka;

import io.stockguard.journal.Failures;
import io.stockguard.journal.EventCodec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.stockguard.journal.DeadLetter;
import io.stockguard.journal.DeadLetters;
import io.stockguard.journal.EventApplier;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;

/**
 * What the journal writer applies together and what it sets aside. A batch never ends between a
 * transfer's halves (TransferHold). A batch that keeps failing the same way is set aside, event by
 * event, and the partition moves on; only an unavailable database holds it (Failures). The
 * writer's consumer is Kafka's own MockConsumer and the database an applier that records or fails
 * on cue: what is under test is the writer's policy, not Kafka or the database.
 */
class JournalWriterBatchesTest {

    private static final String TOPIC = "stockguard.events";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    private static final EventCodec CODEC = new EventCodec();

    private final MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
    private final KeptLetters letters = new KeptLetters();
    private final List<String> applied = new CopyOnWriteArrayList<>();
    private JournalWriter writer;

    @AfterEach
    void stop() {
        if (writer != null) {
            writer.stop();
        }
    }

    @Test
    void anEventThatKeepsHittingADuplicateKeyIsSetAsideAndThePartitionMovesOn() {
        StockEvent poisoned = event();
        StockEvent after = event();
        AtomicInteger poisonedAttempts = new AtomicInteger();
        start((events, strict) -> {
            if (events.stream().anyMatch(e -> e.eventId().equals(poisoned.eventId()))) {
                poisonedAttempts.incrementAndGet();
                throw new DuplicateKeyException("duplicate key value violates unique constraint \"stock_event_pkey\"");
            }
            events.forEach(e -> applied.add(e.eventId()));
            return Collections.nCopies(events.size(), EventOutcome.Settled.APPLIED);
        }, () -> {
            send(poisoned, 0);
            send(after, 1);
        });

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(letters.eventIds).containsExactly(poisoned.eventId());
            assertThat(applied).contains(after.eventId());
        });
        assertThat(poisonedAttempts.get()).as("bounded: the batch, then the event alone")
                .isLessThanOrEqualTo(2 * 3 * Failures.CONFLICTS_PER_ERROR);
        assertThat(letters.errors).singleElement().asString().contains("DuplicateKeyException");
    }

    @Test
    void anUnavailableDatabaseHoldsTheEventsWithoutSettingThemAside() {
        StockEvent event = event();
        AtomicInteger attempts = new AtomicInteger();
        start((events, strict) -> {
            if (attempts.incrementAndGet() <= 20) {
                throw new DataAccessResourceFailureException("connection refused",
                        new SQLTransientConnectionException("connection refused"));
            }
            events.forEach(e -> applied.add(e.eventId()));
            return Collections.nCopies(events.size(), EventOutcome.Settled.APPLIED);
        }, () -> send(event, 0));

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(applied).contains(event.eventId()));
        assertThat(attempts.get()).as("tried for as long as the database was away").isGreaterThan(20);
        assertThat(letters.eventIds).isEmpty();
    }

    /**
     * The stock-level watcher once reported "sold out, 0 of 2" for a SKU of 3: a poll ended after a
     * borrowing reservation's TRANSFER_OUT, and the database showed the units in transit as gone.
     */
    @Test
    void aPollThatEndsBetweenATransfersHalvesAppliesThemTogetherWithTheNextPoll() {
        List<List<StockOp>> batches = new CopyOnWriteArrayList<>();
        String transfer = UUID.randomUUID().toString();
        start(recording(batches), () -> {
            send(0, event(), half(StockOp.TRANSFER_OUT, transfer, 1));
            send(2, half(StockOp.TRANSFER_IN, transfer, 0), event());
        });

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(applied).hasSize(4));
        assertThat(batches).containsExactly(List.of(StockOp.RESERVE),
                List.of(StockOp.TRANSFER_OUT, StockOp.TRANSFER_IN, StockOp.RESERVE));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(committed()).isEqualTo(4));
    }

    /** A half whose partner never comes (a send that failed between them) does not stop the partition. */
    @Test
    void aHalfWithoutItsPartnerIsAppliedAloneAfterABoundedHold() {
        List<List<StockOp>> batches = new CopyOnWriteArrayList<>();
        start(recording(batches), () -> send(0, half(StockOp.TRANSFER_OUT, UUID.randomUUID().toString(), 1), event()));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(applied).hasSize(2));
        assertThat(batches).containsExactly(List.of(StockOp.TRANSFER_OUT, StockOp.RESERVE));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(committed()).isEqualTo(2));
    }

    private EventApplier recording(List<List<StockOp>> batches) {
        return (events, strict) -> {
            batches.add(events.stream().map(StockEvent::op).toList());
            events.forEach(e -> applied.add(e.eventId()));
            return Collections.nCopies(events.size(), EventOutcome.Settled.APPLIED);
        };
    }

    private long committed() {
        var offset = consumer.committed(Set.of(PARTITION)).get(PARTITION);
        return offset == null ? -1 : offset.offset();
    }

    /**
     * Starts the writer on the records {@code feed} schedules. MockConsumer runs one scheduled task
     * per poll and returns at once when none is left, so every task is scheduled before the writer
     * polls: a test thread that schedules its second poll's records while the writer runs races
     * the writer's empty polls, which count against the hold of a lone half.
     */
    private void start(EventApplier applier, Runnable feed) {
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(PARTITION));
            consumer.updateBeginningOffsets(Map.of(PARTITION, 0L));
        });
        feed.run();
        MockProducer<String, byte[]> producer = new MockProducer<>(true, null, new StringSerializer(),
                new ByteArraySerializer());
        DeadLetterKeeper keeper = new DeadLetterKeeper(letters, producer, TOPIC + ".dead", event -> { },
                new SimpleMeterRegistry(), Clock.systemUTC());
        KafkaProperties.Writer settings = new KafkaProperties.Writer("test", 1, 500, Duration.ofMillis(20), 3,
                Duration.ofMillis(50));
        writer = new JournalWriter(() -> consumer, TOPIC, applier, CODEC, keeper, settings, new SimpleMeterRegistry(),
                Clock.systemUTC(), ObservationRegistry.NOOP);
        consumer.subscribe(List.of(TOPIC));
        writer.start();
    }

    private void send(StockEvent event, long offset) {
        send(offset, event);
    }

    /** Records at offsets from {@code first} on, all returned by one poll. */
    private void send(long first, StockEvent... events) {
        consumer.schedulePollTask(() -> {
            for (int i = 0; i < events.length; i++) {
                consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, first + i, events[i].skuId().value(),
                        CODEC.encode(events[i])));
            }
        });
    }

    private static StockEvent half(StockOp op, String transfer, int bucket) {
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        long delta = op == StockOp.TRANSFER_OUT ? -1 : 1;
        return new StockEvent(UUID.randomUUID().toString(), SkuId.of("POISON-1"), bucket, op, null, transfer, 1,
                delta, 0, 0, null, "test", at, null, null, null, null, null, null);
    }

    private static StockEvent event() {
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return new StockEvent(UUID.randomUUID().toString(), SkuId.of("POISON-1"), 0, StockOp.RESERVE,
                OrderId.of("o-" + UUID.randomUUID()), null, 1, -1, 1, 0, null, "test", at, null, null, "fingerprint",
                at.plus(Duration.ofMinutes(15)), null, null);
    }

    /** Dead letters kept in memory. */
    private static final class KeptLetters implements DeadLetters {
        final List<String> eventIds = new CopyOnWriteArrayList<>();
        final List<String> errors = new CopyOnWriteArrayList<>();
        private final Set<String> sources = ConcurrentHashMap.newKeySet();

        @Override
        public void keep(String source, String eventId, String skuId, String payload, String error, int attempts,
                Instant failedAt) {
            if (sources.add(source)) {
                eventIds.add(eventId);
                errors.add(error);
            }
        }

        @Override
        public List<DeadLetter> list(boolean openOnly, int limit) {
            return new ArrayList<>();
        }

        @Override
        public Optional<DeadLetter> find(long id) {
            return Optional.empty();
        }

        @Override
        public long countOpen() {
            return eventIds.size();
        }

        @Override
        public boolean markReplayed(long id, String by, Instant at) {
            return false;
        }
    }
}
