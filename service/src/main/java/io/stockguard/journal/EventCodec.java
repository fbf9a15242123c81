package io.stockguard.journal;

import io.stockguard.platform.TraceId;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The wire form of a stock event, in Kafka (one JSON object per record) and in the standard tier's
 * journal table (one JSON array per entry), with named fields that
 * are kept stable across versions (an event written by one version is applied by the next).
 * Unknown fields are ignored, so a newer writer's additions do not poison an older reader.
 */
public final class EventCodec {

    /** The record as it travels. Instants as epoch milliseconds. */
    public record Wire(int v, String id, String sku, int bucket, String op, String order, String request, long qty,
            long da, long dr, long ds, String trace, String actor, long at, Long epoch, Long seq, String fp,
            Long expires, Long hotAvailable, Long hotJournaled, String cu) {
    }

    private static final int VERSION = 1;

    private final JsonMapper json = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    public byte[] encode(StockEvent e) {
        return json.writeValueAsBytes(wire(e));
    }

    private static Wire wire(StockEvent e) {
        return new Wire(VERSION, e.eventId(), e.skuId().value(), e.bucket(), e.op().name(),
                e.orderId() == null ? null : e.orderId().value(), e.requestId(), e.qty(), e.deltaAvailable(),
                e.deltaReserved(), e.deltaSold(), e.traceId() == null ? null : e.traceId().value(), e.actor(),
                e.occurredAt().toEpochMilli(), e.epoch(), e.sequence(), e.fingerprint(),
                e.expiresAt() == null ? null : e.expiresAt().toEpochMilli(), e.hotAvailable(), e.hotJournaled(),
                CustomerId.valueOf(e.customerId()));
    }

    /** Several events as one JSON array of the same objects: one journal entry of the standard tier. */
    public byte[] encodeAll(List<StockEvent> events) {
        List<Wire> wires = new ArrayList<>(events.size());
        events.forEach(e -> wires.add(wire(e)));
        return json.writeValueAsBytes(wires);
    }

    /** Decodes what {@link #encodeAll} wrote; throws {@link IllegalArgumentException} when it is not that. */
    public List<StockEvent> decodeAll(byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("an empty entry");
        }
        Wire[] wires;
        try {
            wires = json.readValue(bytes, Wire[].class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a list of stock events: " + preview(bytes), e);
        }
        List<StockEvent> events = new ArrayList<>(wires.length);
        for (Wire wire : wires) {
            events.add(event(wire));
        }
        return events;
    }

    /** Decodes a record; throws {@link IllegalArgumentException} for one that is not a valid event. */
    public StockEvent decode(byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("an empty record");
        }
        Wire w;
        try {
            w = json.readValue(bytes, Wire.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a stock event: " + preview(bytes), e);
        }
        return event(w);
    }

    private static StockEvent event(Wire w) {
        if (w.v() != VERSION) {
            throw new IllegalArgumentException("unknown event version " + w.v());
        }
        try {
            return new StockEvent(w.id(), SkuId.of(w.sku()), w.bucket(), StockOp.valueOf(w.op()),
                    w.order() == null ? null : OrderId.of(w.order()), w.request(), w.qty(), w.da(), w.dr(), w.ds(),
                    w.trace() == null ? null : new TraceId(w.trace()), w.actor(), Instant.ofEpochMilli(w.at()),
                    w.epoch(), w.seq(), w.fp(), w.expires() == null ? null : Instant.ofEpochMilli(w.expires()),
                    w.hotAvailable(), w.hotJournaled(), CustomerId.ofNullable(w.cu()));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("an invalid stock event: " + e.getMessage(), e);
        }
    }

    public static String preview(byte[] bytes) {
        String text = new String(bytes, 0, Math.min(bytes.length, 200), StandardCharsets.UTF_8);
        return bytes.length > 200 ? text + "…" : text;
    }
}
