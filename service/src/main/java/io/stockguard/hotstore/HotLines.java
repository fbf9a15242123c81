package io.stockguard.hotstore;

import io.stockguard.journal.EventIds;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.platform.Caller;
import io.stockguard.platform.TraceId;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The per-SKU scripts that move stock (reserve, confirm, release, stock changes) and the events
 * their replies describe. Events are rebuilt here from the reply and what the caller knows, so they
 * match what the scripts appended to the outbox field by field. Every script is told the epoch the
 * caller may change the SKU at and refuses any other ({@code STALE}); a line record written under
 * another epoch is reported ({@code FOREIGN}), never trusted.
 */
final class HotLines {

    /**
     * A line the hot store changed: its bucket, the outbox entries it wrote and their events, and
     * the gives made before it that were not journaled yet (their entry ids): journaled first.
     */
    record Change(SkuId skuId, int bucket, List<String> entryIds, List<StockEvent> events,
            List<String> givesBefore) {

        Change(SkuId skuId, int bucket, List<String> entryIds, List<StockEvent> events) {
            this(skuId, bucket, entryIds, events, List.of());
        }
    }

    /**
     * A line as the hot store holds it now (line.lua).
     *
     * @param epochLoaded the epoch of the SKU's copy in the hot store
     * @param epoch the epoch the line's record was written under
     * @param pending the outbox entries of the line's last change, if it has not forgotten them
     */
    record HeldLine(SkuId skuId, long epochLoaded, String state, int bucket, int qty, long epoch,
            List<String> pending) {

        /** Reserved or sold here, by the copy of the SKU the hot store has now. */
        boolean held() {
            return epoch == epochLoaded && ("RESERVED".equals(state) || "CONFIRMED".equals(state));
        }
    }

    private final RedisGateway redis;
    private final RedisProperties properties;

    HotLines(RedisGateway redis, RedisProperties properties) {
        this.redis = redis;
        this.properties = properties;
    }

    /**
     * A line record as the scripts write it: {@code state|bucket|qty|epoch|entries}; written from the
     * database's copy it has no pending entries (the database has the change).
     */
    static String record(String state, int bucket, long qty, long epoch, CustomerId customer) {
        return state + "|" + bucket + "|" + qty + "|" + epoch + "||" + (customer == null ? "" : customer.value());
    }

    /**
     * The change an earlier attempt made to a line that is still in the outbox: its entries (of
     * those the line's record names) not yet removed, i.e. perhaps never journaled. A retry journals
     * them again before it answers (the journal takes each event id once).
     */
    Change pending(SkuId sku, int bucket, String entries) {
        if (entries == null || entries.isEmpty()) {
            return new Change(sku, bucket, List.of(), List.of());
        }
        List<String> ids = new ArrayList<>();
        List<StockEvent> events = new ArrayList<>();
        for (var message : redis.outboxEntries(Keys.outbox(sku), List.of(entries.split(",")))) {
            ids.add(message.getId());
            events.add(OutboxEvents.toEvent(message.getBody()));
        }
        return new Change(sku, bucket, ids, events);
    }

    /** The order's line on the SKU; empty when the hot store has no record of it (or not the SKU). */
    Optional<HeldLine> read(OrderId order, SkuId sku) {
        Reply reply = new Reply(redis.run(Script.LINE, List.of(Keys.meta(sku), Keys.line(sku, order)), List.of()));
        return switch (reply.status()) {
            case "NONE", "NOT_LOADED" -> Optional.empty();
            case "LINE" -> {
                String entries = reply.string(6);
                yield Optional.of(new HeldLine(sku, reply.number(1), reply.string(2), (int) reply.number(3),
                        (int) reply.number(4), reply.number(5),
                        entries == null || entries.isEmpty() ? List.of() : List.of(entries.split(","))));
            }
            default -> throw reply.unexpected("line.lua");
        };
    }

    /**
     * Runs reserve.lua; an OK reply is returned with its change, any other reply as is.
     *
     * @param databaseAsked the database was asked and does not know the order (reserve.lua's
     *     ASK_DATABASE after a loss)
     */
    ReserveReply reserve(OrderId order, SkuId sku, int qty, int home, int bucketCount, boolean commit,
            String fingerprint, Instant now, Instant holdEnds, Caller caller, long epoch, CustomerId customer,
            boolean databaseAsked) {
        List<String> arguments = reserveArguments(order, qty, home, bucketCount, commit, fingerprint, now, holdEnds,
                caller, epoch, customer, databaseAsked);
        Reply reply = new Reply(redis.run(Script.RESERVE, Keys.reserveKeys(sku, order), arguments));
        return reserveReply(reply, order, sku, qty, fingerprint, now, holdEnds, caller, customer);
    }

    /** reserve.lua's arguments, for {@link #reserve} and for a script that reserves among its steps. */
    List<String> reserveArguments(OrderId order, int qty, int home, int bucketCount, boolean commit,
            String fingerprint, Instant now, Instant holdEnds, Caller caller, long epoch, CustomerId customer,
            boolean databaseAsked) {
        List<String> arguments = new ArrayList<>(List.of(order.value(), Integer.toString(qty),
                Integer.toString(home), commit ? "1" : "0", RecordedLines.millis(now), RecordedLines.millis(holdEnds),
                fingerprint, trace(caller), caller.actor().toString(),
                Long.toString(properties.lineLifetime().toSeconds()), Integer.toString(properties.outboxMax()),
                Long.toString(epoch), customer == null ? "" : customer.value(), databaseAsked ? "1" : ""));
        for (int i = 0; i < 2 * bucketCount + 2; i++) {
            arguments.add(EventIds.next());
        }
        return arguments;
    }

    /** What reserve.lua's reply says: an OK reply with its change, any other as is. */
    ReserveReply reserveReply(Reply reply, OrderId order, SkuId sku, int qty, String fingerprint, Instant now,
            Instant holdEnds, Caller caller, CustomerId customer) {
        return reply.is("OK") ? new ReserveReply.Made(reserved(reply, order, sku, qty, fingerprint, now, holdEnds,
                caller, customer)) : ReserveReply.refusal(reply);
    }

    /** The change an OK reply of reserve.lua describes. */
    private Change reserved(Reply reply, OrderId order, SkuId sku, int qty, String fingerprint, Instant now,
            Instant holdEnds, Caller caller, CustomerId customer) {
        int home = (int) reply.number(1);
        long epoch = reply.number(2);
        List<String> entries = new ArrayList<>();
        List<StockEvent> events = new ArrayList<>();
        String transfer = null;
        for (int i = 4; i + 10 <= reply.size(); i += 10) {
            String eventId = reply.string(i + 1);
            StockOp op = StockOp.valueOf(reply.string(i + 3));
            long da = reply.number(i + 4);
            if (op == StockOp.TRANSFER_OUT) {
                transfer = eventId;
            }
            boolean orderOp = op.isOrderOperation();
            entries.add(reply.string(i));
            events.add(new StockEvent(eventId, sku, (int) reply.number(i + 2), op, orderOp ? order : null,
                    orderOp ? null : transfer, orderOp ? qty : Math.abs(da), da, reply.number(i + 5),
                    reply.number(i + 6), caller.traceId(), caller.actor().toString(), now, epoch,
                    reply.number(i + 7), op == StockOp.RESERVE ? fingerprint : null,
                    op == StockOp.RESERVE ? holdEnds : null, reply.number(i + 8), reply.number(i + 9),
                    op == StockOp.RESERVE ? customer : null));
        }
        return new Change(sku, home, entries, events, ids(reply.string(3)));
    }

    private static List<String> ids(String joined) {
        return joined == null || joined.isEmpty() ? List.of() : List.of(joined.split(","));
    }

    LineStep.ToConfirm confirm(OrderId order, SkuId sku, Instant now, Caller caller, long epoch) {
        Reply reply = new Reply(redis.run(Script.CONFIRM, Keys.reserveKeys(sku, order), List.of(order.value(),
                RecordedLines.millis(now), trace(caller), caller.actor().toString(),
                Long.toString(properties.lineLifetime().toSeconds()), EventIds.next(), Long.toString(epoch))));
        return reply.is("OK") ? new LineStep.Moved(confirmed(reply, order, sku, now, caller))
                : LineStep.confirmRefusal(reply);
    }

    private Change confirmed(Reply reply, OrderId order, SkuId sku, Instant now, Caller caller) {
        int bucket = (int) reply.number(3);
        long qty = reply.number(4);
        StockEvent event = new StockEvent(reply.string(2), sku, bucket, StockOp.CONFIRM, order, null, qty, 0, -qty,
                qty, caller.traceId(), caller.actor().toString(), now, reply.number(6), reply.number(5), null, null,
                reply.number(7), reply.number(8));
        return new Change(sku, bucket, List.of(reply.string(1)), List.of(event));
    }

    /** Runs release.lua: {@code how} is CANCEL, EXPIRE, UNRESERVE or DISCARD (with the reservation's entries). */
    LineStep.ToRelease release(OrderId order, SkuId sku, String how, Instant now, Caller caller, long epoch,
            List<String> entries) {
        List<String> arguments = new ArrayList<>(List.of(order.value(), how, RecordedLines.millis(now), trace(caller),
                caller.actor().toString(), Long.toString(properties.lineLifetime().toSeconds()), EventIds.next(),
                Long.toString(epoch)));
        arguments.addAll(entries);
        Reply reply = new Reply(redis.run(Script.RELEASE, Keys.reserveKeys(sku, order), arguments));
        // Only a CANCEL or an EXPIRE moves stock by an event of its own name.
        return reply.is("OK") ? new LineStep.Moved(released(reply, order, sku, StockOp.valueOf(how), now, caller))
                : LineStep.releaseRefusal(reply);
    }

    private Change released(Reply reply, OrderId order, SkuId sku, StockOp op, Instant now, Caller caller) {
        int bucket = (int) reply.number(3);
        StockEvent event = new StockEvent(reply.string(2), sku, bucket, op, order, null, reply.number(4),
                reply.number(6), reply.number(7), reply.number(8), caller.traceId(), caller.actor().toString(), now,
                reply.number(9), reply.number(5), null, null, reply.number(10), reply.number(11));
        return new Change(sku, bucket, List.of(reply.string(1)), List.of(event));
    }

    /**
     * Runs stock.lua: a restock or an adjustment ({@code op}), by a signed delta or to a new total
     * ({@code set}), idempotent by request id when there is one.
     */
    StockReply stock(SkuId sku, StockOp op, boolean set, long amount, String requestId, String fingerprint,
            Instant now, Caller caller, long epoch, int bucketCount) {
        List<String> arguments = new ArrayList<>(List.of(op.name(), set ? "SET" : "DELTA", Long.toString(amount),
                requestId == null ? "" : requestId, fingerprint, Long.toString(epoch), RecordedLines.millis(now),
                trace(caller), caller.actor().toString(), Long.toString(properties.lineLifetime().toSeconds()),
                Integer.toString(properties.outboxMax())));
        for (int i = 0; i < bucketCount; i++) {
            arguments.add(EventIds.next());
        }
        String request = "sg:{" + sku.value() + "}:rq:" + (requestId == null ? "" : requestId);
        Reply reply = new Reply(redis.run(Script.STOCK, List.of(Keys.meta(sku), Keys.buckets(sku), Keys.outbox(sku),
                request, Keys.gives(sku)), arguments));
        return reply.is("OK") ? new StockReply.Made(stocked(reply, sku, requestId, fingerprint, now, caller))
                : StockReply.refusal(reply);
    }

    /** The change an OK reply of stock.lua describes (one event per bucket it changed). */
    private Change stocked(Reply reply, SkuId sku, String requestId, String fingerprint, Instant now, Caller caller) {
        long epoch = reply.number(1);
        List<String> entries = new ArrayList<>();
        List<StockEvent> events = new ArrayList<>();
        for (int i = 5; i + 10 <= reply.size(); i += 10) {
            long da = reply.number(i + 4);
            entries.add(reply.string(i));
            events.add(new StockEvent(reply.string(i + 1), sku, (int) reply.number(i + 2),
                    StockOp.valueOf(reply.string(i + 3)), null, requestId, Math.abs(da), da, 0, 0, caller.traceId(),
                    caller.actor().toString(), now, epoch, reply.number(i + 7),
                    requestId == null ? null : fingerprint, null, reply.number(i + 8), reply.number(i + 9)));
        }
        return new Change(sku, -1, entries, events, ids(reply.string(4)));
    }

    private static String trace(Caller caller) {
        TraceId traceId = caller.traceId();
        return traceId == null ? "" : traceId.value();
    }
}
