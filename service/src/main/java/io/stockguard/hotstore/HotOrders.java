package io.stockguard.hotstore;

import static io.stockguard.hotstore.RecordedLines.encode;
import static io.stockguard.hotstore.RecordedLines.encodeWithBuckets;
import static io.stockguard.hotstore.RecordedLines.instant;
import static io.stockguard.hotstore.RecordedLines.millis;


import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.CustomerId;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The order records of the hot store (order.lua): idempotency gate, tombstones, and each order's lines. */
final class HotOrders {

    private final RedisGateway redis;
    private final RedisProperties properties;

    HotOrders(RedisGateway redis, RedisProperties properties) {
        this.redis = redis;
        this.properties = properties;
    }

    /**
     * Opens the order's record for {@code attempt}, which holds it from then on (NEW, or RESUME of one
     * left). {@code goneHolder}, when not empty, is an attempt whose instance is gone: a record it
     * still holds is taken over at once ('' to wait for the record to go quiet).
     */
    OpenReply open(OrderId order, String fingerprint, List<StockLine> lines, Instant now, Instant holdEnds,
            String traceId, CustomerId customer, Attempt attempt, String goneHolder) {
        return OpenReply.of(call(order, openArguments(fingerprint, lines, now, holdEnds, traceId, customer, attempt,
                goneHolder)));
    }

    /** OPEN's arguments (order.lua's ARGV), for {@link #open} and for a script that runs OPEN among its steps. */
    List<String> openArguments(String fingerprint, List<StockLine> lines, Instant now, Instant holdEnds,
            String traceId, CustomerId customer, Attempt attempt, String goneHolder) {
        return arguments("OPEN", now, fingerprint, encode(lines), millis(holdEnds), nullToEmpty(traceId),
                Long.toString(properties.lineLifetime().toSeconds()),
                Long.toString(properties.openingStale().toMillis()), nullToEmpty(CustomerId.valueOf(customer)),
                attempt.id(), goneHolder);
    }

    /** What CLOSE answered. */
    sealed interface Closing {
        /** The record holds the order's final state and lines now. */
        record Closed() implements Closing {
        }

        /** A cancel overtook the reservation while it was being made. */
        record Cancelled() implements Closing {
        }

        /** The record had left OPENING already (its state): rewritten from the database meanwhile. */
        record InState(String state) implements Closing {
        }

        /**
         * Another attempt took the record over (this one went quiet for longer than opening-stale):
         * the order's outcome is the holder's to give, and this attempt changed nothing.
         */
        record Taken() implements Closing {
        }
    }

    /** Closes an order with its lines, each stamped with the epoch of the hot store that holds it. */
    Closing close(OrderId order, ReservationState state, List<ReservedLine> lines, Map<SkuId, Long> epochs,
            Instant now, Attempt attempt) {
        return closing(call(order, closeArguments(state, lines, epochs, now, attempt)));
    }

    /** CLOSE's arguments (order.lua's ARGV), for {@link #close} and for a script that runs CLOSE among its steps. */
    List<String> closeArguments(ReservationState state, List<ReservedLine> lines, Map<SkuId, Long> epochs,
            Instant now, Attempt attempt) {
        return arguments("CLOSE", now, state.name(), encodeWithBuckets(lines, epochs), attempt.id());
    }

    /** What CLOSE's reply says. */
    static Closing closing(Reply closed) {
        return switch (closed.status()) {
            case "OK" -> new Closing.Closed();
            case "CANCELLED" -> new Closing.Cancelled();
            case "TAKEN" -> new Closing.Taken();
            case "STATE" -> new Closing.InState(closed.string(1));
            default -> throw closed.unexpected("order.lua CLOSE");
        };
    }

    /**
     * Forgets an OPENING record the attempt holds (a refused reservation), so a retry starts afresh;
     * false when another attempt took it over (it is that one's to finish or undo).
     */
    boolean abort(OrderId order, Instant now, Attempt attempt) {
        return !call(order, "ABORT", now, attempt.id()).is("TAKEN");
    }

    /** The attempt holding the order's record gives up on it: the next attempt resumes it at once. */
    Reply giveUp(OrderId order, String fingerprint, Instant now, Attempt attempt) {
        return call(order, "GIVE_UP", now, fingerprint, attempt.id());
    }

    /** What CLAIM answered. */
    sealed interface Claim {
        /** Taken over: the fingerprint of the request that opened it, and the lines it asked for ("sku|qty;…"). */
        record Claimed(String fingerprint, String lines) implements Claim {
        }

        /** The request that opened the record still holds it. */
        record Busy() implements Claim {
        }

        /** The record is not OPENING (its state, or NONE): nothing is half-way. */
        record NotOpening(String state) implements Claim {
        }
    }

    /**
     * The outbox sweeper takes over an OPENING record whose request is gone (gave up, or silent for
     * longer than {@code opening-stale}), to finish or undo the order as a whole.
     */
    Claim claim(OrderId order, Instant now, Attempt attempt) {
        Reply claimed = call(order, "CLAIM", now, Long.toString(properties.openingStale().toMillis()), attempt.id());
        return switch (claimed.status()) {
            case "CLAIMED" -> new Claim.Claimed(claimed.string(1), claimed.string(2));
            case "BUSY" -> new Claim.Busy();
            case "STATE" -> new Claim.NotOpening(claimed.string(1));
            default -> throw claimed.unexpected("order.lua CLAIM");
        };
    }

    /** What SETTLING answered: whether a confirm, cancel or expiry of the order is under way. */
    sealed interface Settling {
        /** Its caller is at work (it has not gone quiet): the lines' changes are that caller's to journal. */
        record UnderWay() implements Settling {
        }

        /**
         * Its caller went quiet half-way ({@code state}: CONFIRMING, CANCELLING or EXPIRING): some
         * lines may have moved and others not, and nobody else will ask for the rest.
         */
        record LeftHalfWay(String state) implements Settling {
        }

        /** None under way: settled, never begun, or a record of another Redis history. */
        record Idle() implements Settling {
        }
    }

    /** Whether a confirm, cancel or expiry of the order is under way, or was left half-way by its caller. */
    Settling settling(OrderId order, Instant now) {
        Reply reply = call(order, "SETTLING", now, Long.toString(properties.openingStale().toMillis()));
        if (reply.is("BUSY")) {
            return new Settling.UnderWay();
        }
        String state = reply.string(1);
        return switch (state) {
            case "CONFIRMING", "CANCELLING", "EXPIRING" -> new Settling.LeftHalfWay(state);
            default -> new Settling.Idle();
        };
    }

    OrderDecision.ToCancel cancel(OrderId order, Instant now) {
        return OrderDecision.cancel(call(order, "CANCEL", now, Long.toString(properties.lineLifetime().toSeconds()),
                Long.toString(properties.openingStale().toMillis())));
    }

    OrderDecision.ToConfirm confirm(OrderId order, Instant now) {
        return OrderDecision.confirm(call(order, "CONFIRM", now));
    }

    OrderDecision.ToExpire expire(OrderId order, Instant now) {
        return OrderDecision.expire(call(order, "EXPIRE", now, Long.toString(properties.openingStale().toMillis())));
    }

    /**
     * Extends a held order's hold to {@code hold} after it was made, if it is shorter and the order has
     * an extension left ({@code allowed} in all).
     */
    OrderDecision.ToExtend extend(OrderId order, Duration hold, int allowed, Instant now) {
        return OrderDecision.extend(call(order, "EXTEND", now, Long.toString(hold.toMillis()),
                Integer.toString(allowed)));
    }

    Reply finish(OrderId order, ReservationState state, Instant now) {
        return call(order, "FINISH", now, state.name());
    }

    /** The order's record, as stored; empty when there is none (or one of another Redis history). */
    Optional<OrderRecord> get(OrderId order, Instant now) {
        Reply found = call(order, "GET", now);
        if (found.is("NONE")) {
            return Optional.empty();
        }
        if (!found.is("FOUND")) {
            throw found.unexpected("order.lua GET");
        }
        String trace = found.string(6);
        String customer = found.string(9);
        return Optional.of(new OrderRecord(found.string(1), found.string(2), found.string(3), instant(found.string(4)),
                instant(found.string(5)), trace == null || trace.isEmpty() ? null : trace, found.string(7),
                Integer.parseInt(found.string(8)), customer == null || customer.isEmpty() ? null : customer));
    }

    /**
     * An order's record in the hot store (order.lua's header names each field).
     *
     * @param state    the record's own state, the transitional ones included (OPENING, CONFIRMING …)
     * @param lines    the lines as ordered, "sku|qty;…"
     * @param recorded the lines with their buckets and epochs once reserved, "sku|qty|bucket|epoch;…"
     */
    record OrderRecord(String state, String fingerprint, String lines, Instant createdAt, Instant holdEndsAt,
            String traceId, String recorded, int extensions, String customer) {
    }

    /**
     * Writes the database's copy of an order: back, when the hot store lost it; over the hot
     * store's when the database served the order meanwhile.
     *
     * @param fingerprint the fingerprint of the request that made the order (the database's), so that
     *     a retry of it is a replay
     * @param force overwrite even a record of the current epochs (one a caller that died left half-way)
     */
    Reply restore(ReservationView view, String fingerprint, Map<SkuId, Long> epochs, Instant now, boolean force) {
        List<StockLine> lines = view.lines().stream().map(l -> new StockLine(l.skuId(), l.qty())).toList();
        return call(view.orderId(), "RESTORE", now, view.state().name(), view.isTombstone() ? "" : fingerprint,
                encode(lines), encodeWithBuckets(view.lines(), epochs), millis(view.createdAt()),
                millis(view.expiresAt()), nullToEmpty(view.traceId()),
                Long.toString(properties.lineLifetime().toSeconds()), "1", force ? "force" : "",
                Integer.toString(view.extensions()), nullToEmpty(CustomerId.valueOf(view.customerId())));
    }

    /**
     * Removes the hot store's record of an order the database does not have, unless a request
     * made or remade it under the epochs that own its SKUs now (those are the truth).
     */
    void forget(OrderId order, Map<SkuId, Long> epochs, Instant now) {
        StringBuilder current = new StringBuilder();
        epochs.forEach((sku, epoch) -> current.append(current.isEmpty() ? "" : ";").append(sku.value())
                .append("|0|0|").append(epoch));
        call(order, "FORGET", now, current.toString());
    }

    private Reply call(OrderId order, String operation, Instant now, String... rest) {
        return call(order, arguments(operation, now, rest));
    }

    private Reply call(OrderId order, List<String> arguments) {
        return new Reply(redis.run(Script.ORDER, List.of(Keys.order(order)), arguments));
    }

    private static List<String> arguments(String operation, Instant now, String... rest) {
        List<String> arguments = new ArrayList<>(List.of(operation, millis(now)));
        arguments.addAll(List.of(rest));
        return arguments;
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }

    Duration lineLifetime() {
        return properties.lineLifetime();
    }
}
