package io.stockguard.journal.kafka;

import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Keeps the journal writer's transactions from ending between the two halves of a transfer.
 *
 * <p>A reservation that borrows from another bucket journals {@code TRANSFER_OUT} and
 * {@code TRANSFER_IN} together, and the hot store never shows one without the other. A poll may
 * still end between them (the producer sent them in two batches, or the poll's record limit fell
 * there): applied alone, the first half leaves the SKU's database rows short by the units in
 * transit until the next poll, and whoever reads them meanwhile (the stock-level watcher, the
 * console) sees stock that never existed, e.g. "sold out, 0 of 2" for a SKU of 3. So a half whose
 * partner is not in the poll is held, with everything after it in its partition, and applied
 * with the next poll's records; the offsets committed stop before it, so a new consumer reads it
 * again.
 *
 * <p>A half held through {@link #POLLS_MAX} polls is applied alone: its partner is not in the log
 * (a send that failed between the two), and a partition must not stop for it. One hold per
 * consumer: a new consumer starts from the committed offsets, which the held records are not
 * behind, and a revoked partition's held records are dropped for whoever reads it next.
 */
final class TransferHold implements ConsumerRebalanceListener {

    /** Polls a lone half is held through before it is applied alone (each waits up to the poll timeout). */
    static final int POLLS_MAX = 10;

    /** A polled record and its event; the event is null when it could not be read (already set aside). */
    record Polled(ConsumerRecord<String, byte[]> record, StockEvent event) {
    }

    /**
     * What to apply now, in order, and the offset each partition is committed at once it is applied.
     */
    record Batch(List<Polled> records, Map<TopicPartition, Long> resumeAt) {
    }

    private record Held(List<Polled> records, int polls) {
    }

    private final Map<TopicPartition, Held> held = new HashMap<>();

    boolean holding() {
        return !held.isEmpty();
    }

    /** This poll's records, per partition in poll order, after what each partition held. */
    Batch next(Map<TopicPartition, List<Polled>> polled) {
        Map<TopicPartition, List<Polled>> all = new LinkedHashMap<>();
        held.forEach((partition, h) -> all.put(partition, new ArrayList<>(h.records())));
        polled.forEach((partition, records) -> all.computeIfAbsent(partition, p -> new ArrayList<>()).addAll(records));
        List<Polled> apply = new ArrayList<>();
        Map<TopicPartition, Long> resumeAt = new HashMap<>();
        for (Map.Entry<TopicPartition, List<Polled>> entry : all.entrySet()) {
            TopicPartition partition = entry.getKey();
            List<Polled> records = entry.getValue();
            Held before = held.remove(partition);
            int cut = firstLoneHalf(records, 0);
            int polls = 1;
            if (cut == 0 && before != null && sameStart(before.records(), records)) {
                polls = before.polls() + 1;
                if (polls > POLLS_MAX) {
                    cut = firstLoneHalf(records, 1);
                    polls = 1;
                }
            }
            List<Polled> now = cut < 0 ? records : records.subList(0, cut);
            if (cut >= 0) {
                held.put(partition, new Held(List.copyOf(records.subList(cut, records.size())), polls));
            }
            if (!now.isEmpty()) {
                apply.addAll(now);
                resumeAt.put(partition, cut < 0 ? now.getLast().record().offset() + 1
                        : records.get(cut).record().offset());
            }
        }
        return new Batch(apply, resumeAt);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        held.keySet().removeAll(partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        held.keySet().removeAll(partitions);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        // Nothing is held for a partition just assigned: it is read from its committed offset.
    }

    private static boolean sameStart(List<Polled> before, List<Polled> now) {
        return before.getFirst().record().offset() == now.getFirst().record().offset();
    }

    /** The first transfer half at or after {@code from} whose other half is not among the records; -1 if none. */
    private static int firstLoneHalf(List<Polled> records, int from) {
        Set<String> halves = new HashSet<>();
        for (Polled polled : records) {
            if (half(polled.event())) {
                halves.add(key(polled.event(), polled.event().op()));
            }
        }
        for (int i = from; i < records.size(); i++) {
            StockEvent event = records.get(i).event();
            if (half(event) && !halves.contains(key(event, event.op() == StockOp.TRANSFER_OUT ? StockOp.TRANSFER_IN
                    : StockOp.TRANSFER_OUT))) {
                return i;
            }
        }
        return -1;
    }

    private static String key(StockEvent half, StockOp op) {
        return half.skuId().value() + '\n' + half.requestId() + '\n' + op;
    }

    private static boolean half(StockEvent event) {
        return event != null && event.requestId() != null
                && (event.op() == StockOp.TRANSFER_OUT || event.op() == StockOp.TRANSFER_IN);
    }
}
