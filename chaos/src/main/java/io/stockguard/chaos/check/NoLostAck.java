package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * No acknowledged change is lost: each order's final state must be reachable from the state its
 * last acknowledged operation produced, by operations that were acknowledged or may have landed
 * (INFO: at any time after their invocation, even after later operations), or by the expiry of a
 * hold old enough. An order that holds or held stock must hold exactly the lines asked for, and
 * nothing may be held by an order whose reservation was never attempted.
 */
final class NoLostAck extends Rule {

    static final String NAME = "no-lost-ack";

    NoLostAck() {
        super(NAME);
    }

    @Override
    String judge(Evidence evidence, CheckOptions options, Violations violations) {
        int checked = 0;
        for (OrderFacts order : evidence.orders()) {
            String problem = order.finalState().isEmpty()
                    ? "order " + order.orderId()
                            + ": no definite final read, so its acknowledged changes cannot be verified"
                    : problem(order, order.finalState().get(), options);
            checked++;
            if (problem != null) {
                violations.add(problem, order.ops());
            }
        }
        return violations.none()
                ? checked + " orders: every acknowledged change is in the final state"
                : violations.count() + " of " + checked + " orders lost (or cannot show) an acknowledged change";
    }

    private static String problem(OrderFacts order, OrderState last, CheckOptions options) {
        String id = "order " + order.orderId() + ": ";
        boolean reserveMayHaveLanded = OrderFacts.mayHaveApplied(order.reserves());
        boolean holdsOrHeld = last == OrderState.RESERVED || last == OrderState.CONFIRMED
                || last == OrderState.EXPIRED || !order.finalLines().isEmpty()
                || (last == OrderState.CANCELLED && order.reserves().stream().anyMatch(Attempt::acknowledged));
        if (holdsOrHeld && !reserveMayHaveLanded) {
            return id + "final read " + last.shown() + " " + OpText.lines(order.finalLines())
                    + " shows stock held, but no reserve was acknowledged or left in doubt";
        }
        Attempt ack = order.lastAcknowledged().orElse(null);
        OrderState from = ack == null ? OrderState.ABSENT : stateAfter(ack);
        if (!reachable(from, order, options).contains(last)) {
            String cause = ack == null ? "nothing was acknowledged"
                    : ack.f() + " acknowledged (#" + ack.answer().index() + ", " + from.shown() + ")";
            return id + cause + " but the final read says " + last.shown();
        }
        if (holdsOrHeld && !Lines.same(order.finalLines(), order.requestedLines())) {
            return id + "final lines " + OpText.lines(order.finalLines()) + " differ from the lines asked for "
                    + OpText.lines(order.requestedLines());
        }
        return null;
    }

    /** The state an acknowledged change left the order in: what its answer said, else what the operation does. */
    static OrderState stateAfter(Attempt ack) {
        OrderState answered = OrderState.parse(ack.answer().state());
        if (answered != null) {
            return answered;
        }
        return switch (ack.f()) {
            case "reserve" -> Boolean.TRUE.equals(ack.invoke().commit()) ? OrderState.CONFIRMED : OrderState.RESERVED;
            case "confirm" -> OrderState.CONFIRMED;
            default -> OrderState.CANCELLED;
        };
    }

    /** The states the order can reach from {@code from} by the operations that may have landed, or expiry. */
    static Set<OrderState> reachable(OrderState from, OrderFacts order, CheckOptions options) {
        Set<OrderState> reached = EnumSet.of(from);
        List<OrderState> frontier = new ArrayList<>(List.of(from));
        while (!frontier.isEmpty()) {
            for (OrderState next : moves(frontier.removeLast(), order, options)) {
                if (reached.add(next)) {
                    frontier.add(next);
                }
            }
        }
        return reached;
    }

    private static List<OrderState> moves(OrderState from, OrderFacts order, CheckOptions options) {
        boolean confirm = OrderFacts.mayHaveApplied(order.confirms());
        boolean cancel = OrderFacts.mayHaveApplied(order.cancels()) || order.withdrawnByService();
        List<OrderState> to = new ArrayList<>();
        switch (from) {
            case ABSENT -> {
                order.reserves().stream().filter(Attempt::mayHaveApplied)
                        .map(a -> Boolean.TRUE.equals(a.invoke().commit()) ? OrderState.CONFIRMED : OrderState.RESERVED)
                        .forEach(to::add);
                if (cancel) {
                    to.add(OrderState.CANCELLED); // a tombstone
                }
            }
            case RESERVED -> {
                if (confirm) {
                    to.add(OrderState.CONFIRMED);
                }
                if (cancel) {
                    to.add(OrderState.CANCELLED);
                }
                long readAt = order.finalRead().map(Attempt::completedAt).orElse(Long.MAX_VALUE);
                if (mayHaveExpired(order, readAt, options)) {
                    to.add(OrderState.EXPIRED);
                }
            }
            case CONFIRMED -> {
                if (cancel) {
                    to.add(OrderState.CANCELLED);
                }
            }
            case CANCELLED, EXPIRED -> {
                // final states
            }
        }
        return to;
    }

    /**
     * Whether a hold of this order may have expired by {@code atMillis}: some reserve that asked for a
     * hold may have landed at its invocation, and its TTL, less the clock skew a service may have, has
     * passed since. An acknowledged extension makes the hold last at least what it asked for, from
     * the same reservation: an order that expired before that lost it.
     */
    static boolean mayHaveExpired(OrderFacts order, long atMillis, CheckOptions options) {
        long extended = order.extendedHoldSeconds();
        return order.reserves().stream()
                .filter(a -> a.mayHaveApplied() && !Boolean.TRUE.equals(a.invoke().commit()))
                .anyMatch(a -> atMillis - a.invokedAt() + options.clockSkewAllowanceMillis()
                        >= Math.max(ttlSeconds(a.invoke(), options), extended) * 1000);
    }

    private static long ttlSeconds(Op reserve, CheckOptions options) {
        return reserve.ttlSeconds() == null ? options.defaultTtlSeconds() : reserve.ttlSeconds();
    }
}
