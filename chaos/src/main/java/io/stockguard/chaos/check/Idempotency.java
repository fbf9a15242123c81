package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Every change is idempotent by order id: an order is created (201) at most once, an answer to a
 * request sent after an acknowledged one of the same operation had completed is a replay (reserve:
 * 200 with replayed=true), and every acknowledged reserve of an order carries the same lines, the
 * ones asked for. Requests that overlap in time (a retry racing its original) may be answered in
 * either order: one of them new, the others replays.
 */
final class Idempotency extends Rule {

    static final String NAME = "idempotency";

    Idempotency() {
        super(NAME);
    }

    @Override
    String judge(Evidence evidence, CheckOptions options, Violations violations) {
        int replays = 0;
        for (OrderFacts order : evidence.orders()) {
            List<Attempt> reserves = acknowledged(order.reserves());
            List<Attempt> confirms = acknowledged(order.confirms());
            List<Attempt> cancels = acknowledged(order.cancels());
            replays += (int) Stream.of(reserves, confirms, cancels).flatMap(List::stream)
                    .filter(a -> Boolean.TRUE.equals(a.answer().replayed())).count();
            String problem = reserveProblem(order, reserves);
            if (problem == null) {
                problem = replayProblem(confirms);
            }
            if (problem == null) {
                problem = replayProblem(cancels);
            }
            if (problem != null) {
                violations.add("order " + order.orderId() + ": " + problem, order.ops());
            }
        }
        return violations.none()
                ? evidence.orders().size() + " orders, " + replays + " replayed answers: each order created once, "
                        + "every repeat answered as a replay"
                : violations.count() + " orders answered a repeat as new, or inconsistently";
    }

    private static List<Attempt> acknowledged(List<Attempt> attempts) {
        return attempts.stream().filter(Attempt::acknowledged)
                .sorted(Comparator.comparingLong(a -> a.answer().index())).toList();
    }

    /** The first acknowledged attempt that had completed before {@code attempt} was sent; null when none. */
    private static Attempt completedBefore(Attempt attempt, List<Attempt> acknowledged) {
        return acknowledged.stream().filter(other -> other != attempt && other.completedAt() < attempt.invokedAt())
                .findFirst().orElse(null);
    }

    private static String reserveProblem(OrderFacts order, List<Attempt> attempts) {
        long created = attempts.stream().filter(a -> status(a.answer()) == 201).count();
        if (created > 1) {
            return "reserve answered 201 (created) " + created + " times";
        }
        List<Op.Line> first = attempts.isEmpty() ? null : attempts.getFirst().answer().lines();
        for (Attempt attempt : attempts) {
            Op answer = attempt.answer();
            boolean replay = status(answer) == 200 && Boolean.TRUE.equals(answer.replayed());
            boolean create = status(answer) == 201 && !Boolean.TRUE.equals(answer.replayed());
            Attempt earlier = completedBefore(attempt, attempts);
            if (earlier != null && !replay) {
                return "reserve #" + answer.index() + " was sent after reserve #" + earlier.answer().index()
                        + " was acknowledged but was answered " + status(answer) + " replayed=" + answer.replayed()
                        + " instead of 200 replayed=true";
            }
            if (!replay && !create) {
                return "reserve #" + answer.index() + " answered " + status(answer) + " with replayed="
                        + answer.replayed() + " (201 is new, 200 is a replay)";
            }
            if (!Lines.same(answer.lines(), first) || !Lines.same(answer.lines(), order.requestedLines())) {
                return "reserve #" + answer.index() + " answered lines " + OpText.lines(nonNull(answer.lines()))
                        + " but the order asked for " + OpText.lines(order.requestedLines())
                        + (attempt != attempts.getFirst() ? " and was first answered " + OpText.lines(nonNull(first))
                        : "");
            }
        }
        return null;
    }

    private static String replayProblem(List<Attempt> attempts) {
        for (Attempt attempt : attempts) {
            Attempt earlier = completedBefore(attempt, attempts);
            if (earlier != null && !Boolean.TRUE.equals(attempt.answer().replayed())) {
                return attempt.f() + " #" + attempt.answer().index() + " was sent after " + attempt.f() + " #"
                        + earlier.answer().index() + " was acknowledged but was not answered as a replay";
            }
        }
        return null;
    }

    private static int status(Op answer) {
        return answer.status() == null ? 0 : answer.status();
    }

    private static List<Op.Line> nonNull(List<Op.Line> lines) {
        return lines == null ? List.of() : lines;
    }
}
