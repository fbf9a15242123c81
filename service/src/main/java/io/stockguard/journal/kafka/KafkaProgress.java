package io.stockguard.journal.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.journal.JournalBacklog;
import io.stockguard.journal.JournalProgress;
import io.stockguard.platform.PeriodicWork;
import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/**
 * How far the database writers are behind Kafka: per partition, the log end offset minus the
 * writer group's committed offset (committed only after the database commit, so never ahead of
 * what is applied). Measured on a schedule for the backlog gauge and the degrade decision, with
 * hysteresis (degrade above one threshold, recover below a lower one); and on demand for one
 * SKU's partition when the database path must wait for that SKU's events.
 */
final class KafkaProgress extends PeriodicWork implements JournalProgress {

    private static final Logger log = LoggerFactory.getLogger(KafkaProgress.class);
    private static final Duration ADMIN_CALL_TIMEOUT = Duration.ofSeconds(3);

    private final Admin admin;
    private final EventPartitions partitions;
    private final String groupId;
    private final JournalBacklog backlog;

    /**
     * The backlog is measured on a thread of its own: the shared scheduler's threads all wait on a
     * paused database (its sweeps query it), and the backlog the pause builds would be noticed
     * only once the database was back, too late to throttle anything (seen in the demo).
     */
    KafkaProgress(Admin admin, EventPartitions partitions, String groupId, KafkaProperties.Backlog settings,
            MeterRegistry meters, ApplicationEventPublisher events) {
        super("stockguard-journal-backlog", settings.checkInterval());
        this.admin = admin;
        this.partitions = partitions;
        this.groupId = groupId;
        this.backlog = new JournalBacklog("events in Kafka", settings.degradeAbove(), settings.recoverBelow(),
                settings.reservationsPerSecond(), meters, events);
    }

    /** Kafka acknowledges an event before the journal writer applies it to the database. */
    @Override
    public boolean behind() {
        return true;
    }

    @Override
    public boolean backlogged() {
        return backlog.backlogged();
    }

    @Override
    public boolean admitReservation() {
        return backlog.admitReservation();
    }

    @Override
    public long backlog() {
        return backlog.backlog();
    }

    @Override
    public long mark(SkuId sku) {
        TopicPartition partition = partitions.partitionOf(sku);
        return endOffsets(List.of(partition)).get(partition);
    }

    @Override
    public boolean applied(SkuId sku, long mark) {
        TopicPartition partition = partitions.partitionOf(sku);
        return committed().getOrDefault(partition, 0L) >= mark;
    }

    @Override
    public boolean awaitAllApplied(Duration max) {
        List<TopicPartition> all = allPartitions();
        return JournalProgress.await(max, JournalProgress.AWAIT_POLL, () -> endOffsets(all), ends -> {
            Map<TopicPartition, Long> committed = committed();
            return all.stream().allMatch(p -> committed.getOrDefault(p, 0L) >= ends.getOrDefault(p, 0L));
        });
    }

    private List<TopicPartition> allPartitions() {
        List<TopicPartition> all = new java.util.ArrayList<>();
        for (int p = 0; p < partitions.count(); p++) {
            all.add(new TopicPartition(partitions.topic(), p));
        }
        return all;
    }

    private void measure() {
        try {
            List<TopicPartition> all = allPartitions();
            Map<TopicPartition, Long> ends = endOffsets(all);
            Map<TopicPartition, Long> committed = committed();
            long lag = 0;
            for (TopicPartition partition : all) {
                lag += Math.max(0, ends.getOrDefault(partition, 0L) - committed.getOrDefault(partition, 0L));
            }
            backlog.measured(lag);
        } catch (RuntimeException e) {
            log.debug("measuring the journal backlog failed: {}", e.toString());
        }
    }

    private Map<TopicPartition, Long> endOffsets(List<TopicPartition> of) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        of.forEach(partition -> latest.put(partition, OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> infos = await(admin.listOffsets(latest).all());
        Map<TopicPartition, Long> ends = new HashMap<>();
        infos.forEach((partition, info) -> ends.put(partition, info.offset()));
        return ends;
    }

    private Map<TopicPartition, Long> committed() {
        Map<TopicPartition, OffsetAndMetadata> offsets = await(admin.listConsumerGroupOffsets(groupId)
                .partitionsToOffsetAndMetadata());
        Map<TopicPartition, Long> committed = new HashMap<>();
        offsets.forEach((partition, offset) -> {
            if (offset != null) {
                committed.put(partition, offset.offset());
            }
        });
        return committed;
    }

    private static <T> T await(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(ADMIN_CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking Kafka for offsets", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka did not tell its offsets: " + e, e);
        }
    }

    @Override
    protected void runOnce() {
        measure();
    }
}
