package io.stockguard.journal.kafka;

import io.stockguard.journal.ApplyMeter;
import io.stockguard.journal.Failures;
import io.stockguard.journal.EventCodec;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import io.stockguard.journal.EventApplier;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.SynchronousJournal;
import io.stockguard.platform.Backoff;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The full tier's database writers: {@code stockguard.kafka.writer.consumers} consumers per
 * instance, each on a thread of its own, in one group with the writers of every instance, so the
 * topic's partitions are shared among all of them and applied in parallel (a SKU's events stay in
 * one partition, so in order). Each consumer applies each poll's events in one database
 * transaction (never ending one between a transfer's halves: {@link TransferHold}), exactly once
 * (duplicates are recognised by event id and by order operation), then commits the offsets: an
 * event is never marked consumed before the database has it. While the database is unavailable
 * the same events are retried, with backoff, for as long as it takes; an event that fails for any
 * other reason is retried a few times alone and then set aside as a dead letter, so that one bad
 * event cannot stop the journal.
 *
 * <p>Parallel transactions cannot deadlock one another: each takes its locks in the one order
 * every applier keeps (SKU rows sorted, then orders, then buckets; see the ledger's applier), and
 * the rows of one SKU are only ever written by the consumer of its partition or by a transaction
 * that locked that SKU first. A lock race that still ends in a conflict is retried as any
 * conflict is.
 *
 * <p>Each record applied is observed as {@code stockguard.journal.apply} from its batch's start until its
 * batch is applied (or it is set aside): a consumer span whose parent is read from the record's
 * {@code traceparent} header, so with tracing on the database apply shows in the trace of the
 * request that journaled the event.
 */
final class JournalWriter implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(JournalWriter.class);
    private static final Duration RETRY_BACKOFF_FIRST = Duration.ofMillis(50);
    /** How long stopping waits for all consumers to finish the batch they are applying. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final Supplier<Consumer<String, byte[]>> consumers;
    private final String topic;
    private final EventApplier applier;
    private final EventCodec codec;
    private final DeadLetterKeeper deadLetters;
    private final KafkaProperties.Writer settings;
    private final ApplyMeter applyMeter;
    private final ObservationRegistry observations;
    private final List<Worker> workers = new ArrayList<>();
    private volatile boolean running;

    JournalWriter(Supplier<Consumer<String, byte[]>> consumers, String topic, EventApplier applier, EventCodec codec,
            DeadLetterKeeper deadLetters, KafkaProperties.Writer settings, MeterRegistry meters, Clock clock,
            ObservationRegistry observations) {
        this.observations = observations;
        this.consumers = consumers;
        this.topic = topic;
        this.applier = applier;
        this.codec = codec;
        this.deadLetters = deadLetters;
        this.settings = settings;
        this.applyMeter = new ApplyMeter(meters, clock);
    }

    @Override
    public synchronized void start() {
        running = true;
        for (int i = 0; i < settings.consumers(); i++) {
            Worker worker = new Worker();
            workers.add(worker);
            worker.thread = Thread.ofPlatform().name("stockguard-journal-writer-" + i).daemon(true).start(worker::run);
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        workers.forEach(Worker::wakeup);
        long deadline = System.nanoTime() + STOP_WAIT.toNanos();
        try {
            for (Worker worker : workers) {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    worker.thread.join(Duration.ofNanos(left));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        workers.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops before the database and Redis beans it uses, starts after them. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 100;
    }

    /** One consumer of the group and the thread that polls it and applies what it polled. */
    private final class Worker {

        private volatile Consumer<String, byte[]> consumer;
        /** Why the last attempt failed; written and read by this worker's thread only. */
        private String lastFailure;
        private Thread thread;

        void wakeup() {
            Consumer<String, byte[]> current = consumer;
            if (current != null) {
                current.wakeup();
            }
        }

        void run() {
            while (running) {
                try (Consumer<String, byte[]> current = consumers.get()) {
                    consumer = current;
                    TransferHold hold = new TransferHold();
                    current.subscribe(List.of(topic), hold);
                    while (running) {
                        ConsumerRecords<String, byte[]> records = current.poll(settings.pollTimeout());
                        if (records.isEmpty() && !hold.holding()) {
                            continue;
                        }
                        TransferHold.Batch batch = hold.next(read(records));
                        if (applyAll(batch.records())) {
                            commit(current, batch.resumeAt());
                        }
                    }
                } catch (WakeupException e) {
                    // stop() woke the consumer up.
                } catch (RuntimeException e) {
                    // What was polled and not committed is polled again by the new consumer.
                    log.warn("the journal writer failed ({}); starting again from the committed offsets",
                            Failures.summary(e));
                    LockSupport.parkNanos(settings.retryBackoffMax().toNanos());
                }
            }
        }

        /** The records per partition, read; one that cannot be read is set aside at once (reading it again will not help). */
        private Map<TopicPartition, List<TransferHold.Polled>> read(ConsumerRecords<String, byte[]> records) {
            Map<TopicPartition, List<TransferHold.Polled>> read = new LinkedHashMap<>();
            for (TopicPartition partition : records.partitions()) {
                List<TransferHold.Polled> of = new ArrayList<>();
                for (ConsumerRecord<String, byte[]> record : records.records(partition)) {
                    StockEvent event = null;
                    try {
                        event = codec.decode(record.value());
                    } catch (IllegalArgumentException e) {
                        deadLetters.keep(record, null, e.getMessage(), 1);
                    }
                    of.add(new TransferHold.Polled(record, event));
                }
                read.put(partition, of);
            }
            return read;
        }

        private void commit(Consumer<String, byte[]> current, Map<TopicPartition, Long> resumeAt) {
            if (resumeAt.isEmpty()) {
                return;
            }
            Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
            resumeAt.forEach((partition, offset) -> next.put(partition, new OffsetAndMetadata(offset)));
            try {
                current.commitSync(next);
            } catch (KafkaException e) {
                // The partitions moved to another instance meanwhile: it applies the events again and
                // finds them applied.
                log.info("offsets not committed ({}); the events will be found applied", e.toString());
            }
        }

        /** Applies the records' events; false when the writer is stopping and they must not be committed. */
        private boolean applyAll(List<TransferHold.Polled> records) {
            List<ConsumerRecord<String, byte[]>> sources = new ArrayList<>();
            List<StockEvent> events = new ArrayList<>();
            List<Observation> applying = new ArrayList<>();
            try {
                for (TransferHold.Polled polled : records) {
                    if (polled.event() != null) {
                        sources.add(polled.record());
                        events.add(polled.event());
                        applying.add(observeApplying(polled.record()));
                    }
                }
                if (events.isEmpty()) {
                    return true;
                }
                Boolean applied = applyWithRetries(events);
                if (applied == null) {
                    return false;
                }
                if (!applied) {
                    for (int i = 0; i < events.size(); i++) {
                        if (applyAlone(sources.get(i), events.get(i), applying.get(i)) == null) {
                            return false;
                        }
                    }
                }
                return true;
            } finally {
                applying.forEach(Observation::stop);
            }
        }

        /** Starts the observation of one record's apply, a child of the trace context in its headers. */
        private Observation observeApplying(ConsumerRecord<String, byte[]> record) {
            return Observation.createNotStarted(SynchronousJournal.APPLY_OBSERVATION, () -> {
                ReceiverContext<ConsumerRecord<String, byte[]>> context = new ReceiverContext<>(JournalWriter::header,
                        Kind.CONSUMER);
                context.setCarrier(record);
                context.setRemoteServiceName("kafka");
                return context;
            }, observations).lowCardinalityKeyValue(SynchronousJournal.JOURNAL_KEY, "kafka")
                    .highCardinalityKeyValue("messaging.destination.name", record.topic())
                    .highCardinalityKeyValue("messaging.kafka.offset", Long.toString(record.offset())).start();
        }

        private Boolean applyAlone(ConsumerRecord<String, byte[]> source, StockEvent event, Observation observation) {
            Boolean applied = applyWithRetries(List.of(event));
            if (Boolean.FALSE.equals(applied)) {
                observation.error(new IllegalStateException("set aside as a dead letter: " + lastFailure));
                deadLetters.keep(source, event, lastFailure, settings.attemptsBeforeDeadLetter());
            }
            return applied;
        }

        /**
         * Applies the events in one transaction. True when applied; false after the allowed attempts
         * failed for a reason other than an unavailable database; null when the writer is stopping.
         *
         * <p>Not Resilience4j's {@code Retry}, whose attempts are bounded by one count: an unavailable
         * database is waited out for as long as it takes (the partition must not skip ahead), conflicts
         * and other errors each have their own bound, and the loop ends when the writer stops. The
         * waits are its jittered backoff all the same ({@link Backoff}).
         */
        private Boolean applyWithRetries(List<StockEvent> events) {
            Backoff backoff = new Backoff(RETRY_BACKOFF_FIRST, settings.retryBackoffMax());
            int failures = 0;
            int errors = 0;
            int conflicts = 0;
            int conflictsMax = settings.attemptsBeforeDeadLetter() * Failures.CONFLICTS_PER_ERROR;
            while (running) {
                try {
                    List<EventOutcome> outcomes = applier.apply(events, false);
                    applyMeter.applied(events, outcomes);
                    return true;
                } catch (RuntimeException e) {
                    Failures.Kind kind = Failures.kind(e);
                    Duration wait = backoff.after(++failures);
                    if (kind == Failures.Kind.UNAVAILABLE) {
                        log.warn("the database is unavailable to the journal writer ({}); retrying in {}",
                                Failures.summary(e), wait);
                    } else {
                        lastFailure = Failures.summary(e);
                        int count = kind == Failures.Kind.CONFLICT ? ++conflicts : ++errors;
                        int max = kind == Failures.Kind.CONFLICT ? conflictsMax : settings.attemptsBeforeDeadLetter();
                        log.warn("applying {} event(s) failed ({} {} of {}): {}", events.size(),
                                kind == Failures.Kind.CONFLICT ? "conflict" : "attempt", count, max, lastFailure);
                        if (count >= max) {
                            // The same batch failing the same way is not a race: it is set aside (event by
                            // event, by the caller), so the partition and the hand-overs behind it go on.
                            return false;
                        }
                    }
                    LockSupport.parkNanos(wait.toNanos());
                }
            }
            return null;
        }
    }

    private static String header(ConsumerRecord<String, byte[]> record, String key) {
        Header header = record.headers().lastHeader(key);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
