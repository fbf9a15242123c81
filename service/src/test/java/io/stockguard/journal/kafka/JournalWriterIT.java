package io.stockguard.journal.kafka;

import io.stockguard.journal.EventCodec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The full tier's database writer against events put on the topic by hand, in the orders and
 * repetitions the post-mortem's incidents produced: a cancel consumed before its reserve, two orders that
 * look alike, one event delivered five times, and an event that cannot be applied.
 */
class JournalWriterIT {

    private static RedisServer redis;
    private static KafkaCluster kafka;
    private static RunningService service;
    private static KafkaProducer<String, byte[]> producer;
    private static final EventCodec codec = new EventCodec();

    @BeforeAll
    static void start() {
        redis = RedisServer.start();
        kafka = KafkaCluster.single();
        service = RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), redis.uri(),
                kafka.bootstrapServers(), Map.of("stockguard.kafka.writer.retry-backoff-max", "200ms"));
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer());
    }

    @AfterAll
    static void stop() {
        producer.close();
        service.close();
        kafka.close();
        redis.close();
    }

    @Test
    void aCancelConsumedBeforeItsReserveLeavesTheOrderCancelledAndTheStockWhole() throws Exception {
        String sku = sku(100);
        OrderId order = OrderId.of(Ids.order("early-cancel"));
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        send(event(sku, StockOp.CANCEL, order, 3, 3, -3, at.plusMillis(5)));
        send(event(sku, StockOp.RESERVE, order, 3, -3, 3, at));
        service.awaitJournalApplied(sku);

        assertThat(state(order)).isEqualTo("CANCELLED");
        assertThat(LedgerChecks.totals(service.jdbc(), sku)).isEqualTo(new LedgerChecks.Counters(100, 0, 0));
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
    }

    /** The post-mortem's idempotency key of SKU + qty + second dropped one of two such orders. */
    @Test
    void twoOrdersWithTheSameSkuQuantityAndSecondAreBothApplied() throws Exception {
        String sku = sku(100);
        Instant sameSecond = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        OrderId first = OrderId.of(Ids.order("twin"));
        OrderId second = OrderId.of(Ids.order("twin"));

        send(event(sku, StockOp.RESERVE, first, 2, -2, 2, sameSecond));
        send(event(sku, StockOp.RESERVE, second, 2, -2, 2, sameSecond));
        service.awaitJournalApplied(sku);

        assertThat(state(first)).isEqualTo("RESERVED");
        assertThat(state(second)).isEqualTo("RESERVED");
        assertThat(LedgerChecks.totals(service.jdbc(), sku)).isEqualTo(new LedgerChecks.Counters(96, 4, 0));
    }

    @Test
    void theSameEventDeliveredFiveTimesIsAppliedOnce() throws Exception {
        String sku = sku(100);
        OrderId order = OrderId.of(Ids.order("again"));
        StockEvent reserve = event(sku, StockOp.RESERVE, order, 5, -5, 5, Instant.now());
        for (int i = 0; i < 5; i++) {
            send(reserve);
        }
        service.awaitJournalApplied(sku);

        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM stock_event WHERE event_id = ?", Integer.class,
                reserve.eventId())).isEqualTo(1);
        assertThat(LedgerChecks.totals(service.jdbc(), sku)).isEqualTo(new LedgerChecks.Counters(95, 5, 0));
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), sku);
    }

    @Test
    void aPoisonEventIsSetAsideAfterItsAttemptsWithoutStoppingTheJournalAndIsReplayedOnce() throws Exception {
        String broken = sku(100);
        String healthy = sku(100);
        // A hand edit removed a bucket row: nothing of this SKU can be applied until it is put back.
        service.jdbc().update("DELETE FROM stock_bucket WHERE sku_id = ? AND bucket = 0", broken);
        OrderId poisoned = OrderId.of(Ids.order("poison"));
        OrderId fine = OrderId.of(Ids.order("fine"));
        StockEvent poison = event(broken, StockOp.RESERVE, poisoned, 1, -1, 1, Instant.now());
        send(poison);
        send(event(healthy, StockOp.RESERVE, fine, 1, -1, 1, Instant.now()));

        service.awaitJournalApplied(broken, healthy);
        assertThat(state(fine)).as("the journal went on past the poison").isEqualTo("RESERVED");
        Map<String, Object> letter = service.jdbc().queryForMap(
                "SELECT id, attempts, error, replayed_at FROM dead_letter WHERE event_id = ?", poison.eventId());
        assertThat(letter.get("attempts")).isEqualTo(3);
        assertThat((String) letter.get("error")).contains("bucket");
        assertThat(letter.get("replayed_at")).isNull();
        assertThat(state(poisoned)).isNull();
        assertThat(service.admin().send("GET", "/actuator/prometheus", null).raw().body())
                .containsPattern("stockguard_journal_dead_letters_total(\\{[^}]*\\})? 1\\.0");
        StockGuardClient.Response listed = service.admin().send("GET", "/api/v1/admin/dead-letters", null);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.raw().body()).contains(poison.eventId());

        service.jdbc().update("INSERT INTO stock_bucket (sku_id, bucket, available, reserved, sold, mode, applied_sum) "
                + "VALUES (?, 0, 50, 0, 0, 'NORMAL', 0)", broken);
        long id = ((Number) letter.get("id")).longValue();
        StockGuardClient.Response replayed = service.admin().send("POST", "/api/v1/admin/dead-letters/" + id
                + "/replay", Map.of("reason", "bucket 0 restored after the bad edit"));
        assertThat(replayed.status()).as(replayed.raw().body()).isEqualTo(200);
        assertThat(state(poisoned)).isEqualTo("RESERVED");
        StockGuardClient.Response again = service.admin().send("POST", "/api/v1/admin/dead-letters/" + id
                + "/replay", Map.of("reason", "once more"));
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.code()).isEqualTo("ALREADY_REPLAYED");
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM stock_event WHERE event_id = ?", Integer.class,
                poison.eventId())).isEqualTo(1);
        assertThat(service.jdbc().queryForObject("SELECT COUNT(*) FROM audit_log WHERE action = 'REPLAY_DEAD_LETTER' "
                + "AND target = ?", Integer.class, "dead-letter:" + id)).isEqualTo(1);
    }

    /**
     * The instance's writers share the topic's partitions and apply them in parallel: a SKU whose
     * database rows are held (here by the test's transaction; in a sale, a slow or blocked apply)
     * holds up only the writer of its own partitions, not the SKUs another writer applies. With
     * one writer per instance the second SKU's event waits behind the first.
     */
    @Test
    void aSkuHeldUpInTheDatabaseDoesNotHoldUpTheSkusAnotherWriterApplies() throws Exception {
        Map<TopicPartition, String> owners = writersOfPartitions();
        String held = sku(100);
        String free = skuAppliedByAnotherWriterThan(held, owners);
        OrderId waits = OrderId.of(Ids.order("held-up"));
        OrderId goesOn = OrderId.of(Ids.order("goes-on"));
        try (Connection holder = service.jdbc().getDataSource().getConnection()) {
            holder.setAutoCommit(false);
            try (var lock = holder.prepareStatement("SELECT 1 FROM sku WHERE sku_id = ? FOR UPDATE")) {
                lock.setString(1, held);
                lock.executeQuery().close();
            }
            send(event(held, StockOp.RESERVE, waits, 1, -1, 1, Instant.now()));
            send(event(free, StockOp.RESERVE, goesOn, 1, -1, 1, Instant.now()));

            await().atMost(30, TimeUnit.SECONDS).until(() -> "RESERVED".equals(state(goesOn)));
            assertThat(state(waits)).as("its SKU row is held").isNull();
            holder.rollback();
        }
        service.awaitJournalApplied(held, free);
        assertThat(state(waits)).isEqualTo("RESERVED");
        assertThat(LedgerChecks.totals(service.jdbc(), held)).isEqualTo(new LedgerChecks.Counters(99, 1, 0));
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), held);
        LedgerChecks.assertCountersMatchJournal(service.jdbc(), free);
    }

    /** Which member of the writers' group applies each partition, once every writer of the instance has some. */
    private static Map<TopicPartition, String> writersOfPartitions() {
        KafkaProperties.Writer settings = service.bean(KafkaProperties.class).writer();
        int writers = settings.consumers();
        String group = settings.groupId();
        try (Admin admin = Admin.create(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers()))) {
            Map<TopicPartition, String> owners = new HashMap<>();
            await().atMost(60, TimeUnit.SECONDS).until(() -> {
                ConsumerGroupDescription described = admin.describeConsumerGroups(List.of(group)).all()
                        .get(10, TimeUnit.SECONDS).get(group);
                owners.clear();
                for (MemberDescription member : described.members()) {
                    member.assignment().topicPartitions().forEach(p -> owners.put(p, member.consumerId()));
                }
                return described.members().size() == writers
                        && owners.size() == service.bean(EventPartitions.class).count()
                        && owners.values().stream().distinct().count() == writers;
            });
            return owners;
        }
    }

    private static String skuAppliedByAnotherWriterThan(String sku, Map<TopicPartition, String> owners) {
        EventPartitions partitions = service.bean(EventPartitions.class);
        String writer = owners.get(partitions.partitionOf(SkuId.of(sku)));
        for (int tries = 0; tries < 100; tries++) {
            String other = Ids.sku("writer");
            if (!writer.equals(owners.get(partitions.partitionOf(SkuId.of(other))))) {
                assertThat(service.client().putSku(other, 100, 2).status()).isEqualTo(201);
                return other;
            }
        }
        throw new AssertionError("no SKU of 100 tried falls to another writer than " + writer);
    }

    private static String sku(long total) {
        String sku = Ids.sku("writer");
        assertThat(service.client().putSku(sku, total, 2).status()).isEqualTo(201);
        return sku;
    }

    private static StockEvent event(String sku, StockOp op, OrderId order, long qty, long deltaAvailable,
            long deltaReserved, Instant at) {
        return new StockEvent(UUID.randomUUID().toString(), SkuId.of(sku), 0, op, order, null, qty, deltaAvailable,
                deltaReserved, 0, null, "test", at.truncatedTo(ChronoUnit.MILLIS), null, null,
                op == StockOp.RESERVE ? "fingerprint" : null,
                op == StockOp.RESERVE ? at.plus(Duration.ofMinutes(15)).truncatedTo(ChronoUnit.MILLIS) : null, null,
                null);
    }

    private static void send(StockEvent event) throws Exception {
        EventPartitions partitions = service.bean(EventPartitions.class);
        producer.send(new ProducerRecord<>(partitions.topic(), partitions.of(event.skuId()), event.skuId().value(),
                codec.encode(event))).get(30, TimeUnit.SECONDS);
    }

    private static String state(OrderId order) {
        return service.jdbc().query("SELECT state FROM reservation WHERE order_id = ?",
                (rs, i) -> rs.getString(1), order.value()).stream().findFirst().orElse(null);
    }
}
