package io.stockguard.hotstore;

import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A one-line order's reservation in two trips to Redis instead of three waits and five commands:
 * OPEN with the line's reserve in one script ({@code open_reserve.lua}), and, once the journal has
 * the changes, their outbox entries' forget with CLOSE in another ({@code forget_close.lua}). Each
 * script runs the same steps, with the same replies, as the calls it replaces, so the saga around
 * them ({@link HotReservations}) is unchanged: what it saves is Redis's work (one history check
 * and one command fewer per step joined) and a request's waits.
 *
 * <p>The order's record and the SKU's keys live in two hash slots, and a Redis Cluster runs no
 * script across slots: there, and for orders of several lines, the steps are called one by one.
 */
final class OneLineTrips {

    private final RedisGateway redis;
    private final HotOrders orders;
    private final HotLines lines;

    OneLineTrips(RedisGateway redis, HotOrders orders, HotLines lines) {
        this.redis = redis;
        this.orders = orders;
        this.lines = lines;
    }

    /** Whether this order's steps may be joined here. */
    boolean apply(ReserveCommand command) {
        return command.lines().size() == 1 && !redis.isCluster();
    }

    /**
     * What the first trip answered.
     *
     * @param opened   OPEN's answer
     * @param reserved the line's reserve's answer; null when OPEN did not open the record (nothing
     *     was reserved)
     */
    record Opening(OpenReply opened, ReserveReply reserved) {
    }

    /** OPEN, and when it opens the record, the reserve of the order's one line at {@code epoch}. */
    Opening openAndReserve(ReserveCommand command, Instant now, Instant holdEnds, String trace, Attempt attempt,
            long epoch, int home, int bucketCount) {
        OrderId order = command.orderId();
        StockLine line = command.lines().getFirst();
        List<String> open = orders.openArguments(command.fingerprint(), command.lines(), now, holdEnds, trace,
                command.customerId(), attempt, "");
        List<String> reserve = lines.reserveArguments(order, line.qty(), home, bucketCount, command.commit(),
                command.fingerprint(), now, holdEnds, command.caller(), epoch, command.customerId(), false);
        List<String> arguments = new ArrayList<>(1 + open.size() + reserve.size());
        arguments.add(Integer.toString(open.size()));
        arguments.addAll(open);
        arguments.addAll(reserve);
        List<String> keys = new ArrayList<>(1 + Keys.reserveKeys(line.skuId(), order).size());
        keys.add(Keys.order(order));
        keys.addAll(Keys.reserveKeys(line.skuId(), order));
        Reply reply = new Reply(redis.run(Script.OPEN_RESERVE, keys, arguments));
        if (!reply.is("OPENED")) {
            return new Opening(OpenReply.of(reply), null);
        }
        OpenReply opened = OpenReply.of(new Reply(List.of(reply.values().get(1))));
        Reply reserved = new Reply(reply.values().subList(2, reply.size()));
        return new Opening(opened, lines.reserveReply(reserved, order, line.skuId(), line.qty(),
                command.fingerprint(), now, holdEnds, command.caller(), command.customerId()));
    }

    /**
     * Forgets the journaled outbox entries of the SKU ({@code entryIds}: the line's changes and the
     * gives journaled ahead of them), then closes the order with its line.
     */
    HotOrders.Closing forgetAndClose(OrderId order, SkuId sku, List<String> entryIds, ReservationState state,
            List<ReservedLine> reserved, Map<SkuId, Long> epochs, Instant now, Attempt attempt) {
        List<String> close = orders.closeArguments(state, reserved, epochs, now, attempt);
        List<String> arguments = new ArrayList<>(1 + entryIds.size() + close.size());
        arguments.add(Integer.toString(entryIds.size()));
        arguments.addAll(entryIds);
        arguments.addAll(close);
        return HotOrders.closing(new Reply(redis.run(Script.FORGET_CLOSE,
                List.of(Keys.order(order), Keys.outbox(sku), Keys.gives(sku)), arguments)));
    }
}
