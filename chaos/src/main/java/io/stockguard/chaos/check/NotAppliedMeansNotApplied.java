package io.stockguard.chaos.check;

import java.util.List;

/**
 * A change refused on every attempt has no effect. Refusals include {@code 503 UNAVAILABLE}, whose
 * promise ("certainly not applied", so a client may give up or retry safely) is the one a faulty
 * store is most tempted to break; the summary counts those broken promises on their own.
 *
 * <ul>
 * <li>reserve never acknowledged nor in doubt: the order is unknown at the end, or a tombstone;</li>
 * <li>confirm never acknowledged nor in doubt (and no reserve with commit): the order is not
 *     CONFIRMED (a confirmed-then-cancelled order looks like a cancelled hold, so that case is not seen);</li>
 * <li>cancel never acknowledged nor in doubt: the order is not CANCELLED, cancel being the only way there.</li>
 * </ul>
 */
final class NotAppliedMeansNotApplied extends Rule {

    static final String NAME = "not-applied-means-not-applied";

    NotAppliedMeansNotApplied() {
        super(NAME);
    }

    @Override
    String judge(Evidence evidence, CheckOptions options, Violations violations) {
        int refusedChanges = 0;
        int brokenPromises = 0;
        int unavailableAnswers = 0;
        for (OrderFacts order : evidence.orders()) {
            for (List<Attempt> attempts : List.of(order.reserves(), order.confirms(), order.cancels())) {
                unavailableAnswers += (int) attempts.stream().filter(Attempt::unavailable).count();
                if (attempts.isEmpty() || OrderFacts.mayHaveApplied(attempts)) {
                    continue;
                }
                refusedChanges++;
                OrderState last = order.finalState().orElse(null);
                if (last == null || !tookEffect(attempts.getFirst().f(), order, last)) {
                    continue;
                }
                long unavailable = attempts.stream().filter(Attempt::unavailable).count();
                brokenPromises += (int) unavailable;
                violations.add("order " + order.orderId() + ": " + attempts.getFirst().f() + " refused on all "
                        + attempts.size() + " attempts (" + unavailable + " of them 503 UNAVAILABLE)"
                        + " yet the final read says " + last.shown() + " " + OpText.lines(order.finalLines()),
                        order.ops());
            }
        }
        String scope = refusedChanges + " changes refused on every attempt (" + unavailableAnswers
                + " answers 503 UNAVAILABLE in all)";
        return violations.none() ? scope + ": none took effect"
                : violations.count() + " of " + scope + " took effect; " + brokenPromises
                        + " of the 503 UNAVAILABLE answers were broken promises";
    }

    private static boolean tookEffect(String f, OrderFacts order, OrderState last) {
        return switch (f) {
            case "reserve" -> last != OrderState.ABSENT && !order.finalIsTombstone();
            case "confirm" -> last == OrderState.CONFIRMED && order.reserves().stream()
                    .noneMatch(a -> a.mayHaveApplied() && Boolean.TRUE.equals(a.invoke().commit()));
            case "cancel" -> last == OrderState.CANCELLED && !order.withdrawnByService();
            default -> false;
        };
    }
}
