package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An order reads as the service last told its client, at once: a read of an order sent after an
 * acknowledged change had completed (and while no other change of the order was under way) shows
 * the state that change left: held, sold or cancelled; a hold may have expired since. An order
 * read as unknown after its reservation was acknowledged, or as held after its sale, is a change
 * the service acknowledged before the store that answers reads had it (the seeds' "the order
 * vanished").
 */
final class ReadYourWrites extends Rule {

    static final String NAME = "read-your-writes";

    ReadYourWrites() {
        super(NAME);
    }

    @Override
    String judge(Evidence evidence, CheckOptions options, Violations violations) {
        int judged = 0;
        for (OrderFacts order : evidence.orders()) {
            List<Attempt> changes = order.changes();
            for (Attempt read : order.runReads) {
                Optional<OrderState> seen = shown(read);
                if (seen.isEmpty()) {
                    continue;
                }
                Optional<Attempt> last = changes.stream().filter(Attempt::acknowledged)
                        .filter(change -> change.completedAt() < read.invokedAt())
                        .max(Comparator.comparingLong(Attempt::completedAt));
                if (last.isEmpty() || underWay(changes, last.get(), read)) {
                    continue;
                }
                judged++;
                Set<OrderState> allowed = left(last.get());
                if (!allowed.contains(seen.get())) {
                    violations.add("order " + order.orderId() + " read as " + seen.get().shown() + " at "
                            + OpText.seconds(read.invokedAt()) + ", after its " + last.get().f() + " was acknowledged "
                            + "as " + allowed.iterator().next() + " at " + OpText.seconds(last.get().completedAt()),
                            order.ops());
                }
            }
        }
        return violations.none()
                ? judged + " order reads after an acknowledged change: each showed it"
                : violations.count() + " order reads did not show an acknowledged change";
    }

    /** What a read showed: a state, or absent (404); empty when it settled nothing (5xx, no answer). */
    private static Optional<OrderState> shown(Attempt read) {
        if (read.acknowledged()) {
            return Optional.ofNullable(OrderState.parse(read.answer().state()));
        }
        if (read.refused() && Integer.valueOf(404).equals(read.answer().status())) {
            return Optional.of(OrderState.ABSENT);
        }
        return Optional.empty();
    }

    /**
     * Whether another change of the order may have landed between {@code last} and the read: one
     * acknowledged after it, or one in doubt (which may land at any time after it was sent) that is
     * not an earlier attempt at the same change (a retry's effect is the acknowledged one's).
     */
    private static boolean underWay(List<Attempt> changes, Attempt last, Attempt read) {
        return changes.stream().anyMatch(other -> other != last && other.invokedAt() < read.completedAt()
                && (other.acknowledged() ? other.completedAt() > last.completedAt()
                        : other.mayHaveApplied() && (!other.f().equals(last.f()) || other.invokedAt() > last.invokedAt())));
    }

    /**
     * The states an acknowledged change leaves the order in, the one its answer named first: a hold
     * may have expired since.
     */
    private static Set<OrderState> left(Attempt change) {
        OrderState told = OrderState.parse(change.answer().state());
        if (told == null) {
            told = switch (change.f()) {
                case "confirm" -> OrderState.CONFIRMED;
                case "cancel" -> OrderState.CANCELLED;
                default -> Boolean.TRUE.equals(change.invoke().commit()) ? OrderState.CONFIRMED : OrderState.RESERVED;
            };
        }
        return told == OrderState.RESERVED
                ? java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(List.of(OrderState.RESERVED,
                        OrderState.EXPIRED)))
                : Set.of(told);
    }
}
