package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Every change is idempotent by order id: an order is created (201) at most once, an answer that
 * follows an acknowledged one of the same operation is a replay (reserve: 200 with replayed=true),
 * and every acknowledged reserve of an order carries the same lines, the ones asked for.
 */
final class Idempotency implements Rule {

    static final String NAME = "idempotency";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RuleResult check(Evidence evidence, CheckOptions options) {
        Violations violations = new Violations(NAME);
        int replays = 0;
        for (OrderFacts order : evidence.orders()) {
            List<Op> reserves = acknowledged(order.reserves());
            List<Op> confirms = acknowledged(order.confirms());
            List<Op> cancels = acknowledged(order.cancels());
            replays += (int) Stream.of(reserves, confirms, cancels).flatMap(List::stream)
                    .filter(a -> Boolean.TRUE.equals(a.replayed())).count();
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
        return violations.result(violations.none()
                ? evidence.orders().size() + " orders, " + replays + " replayed answers: each order created once, "
                        + "every repeat answered as a replay"
                : violations.count() + " orders answered a repeat as new, or inconsistently");
    }

    private static List<Op> acknowledged(List<Attempt> attempts) {
        return attempts.stream().filter(Attempt::acknowledged).map(Attempt::answer)
                .sorted(Comparator.comparingLong(Op::index)).toList();
    }

    private static String reserveProblem(OrderFacts order, List<Op> answers) {
        long created = answers.stream().filter(a -> status(a) == 201).count();
        if (created > 1) {
            return "reserve answered 201 (created) " + created + " times";
        }
        for (int i = 0; i < answers.size(); i++) {
            Op answer = answers.get(i);
            boolean replay = status(answer) == 200 && Boolean.TRUE.equals(answer.replayed());
            boolean create = status(answer) == 201 && !Boolean.TRUE.equals(answer.replayed());
            if (i > 0 && !replay) {
                return "reserve #" + answer.index() + " followed an acknowledged reserve but was answered "
                        + status(answer) + " replayed=" + answer.replayed() + " instead of 200 replayed=true";
            }
            if (!replay && !create) {
                return "reserve #" + answer.index() + " answered " + status(answer) + " with replayed="
                        + answer.replayed() + " (201 is new, 200 is a replay)";
            }
            if (!Lines.same(answer.lines(), answers.getFirst().lines())
                    || !Lines.same(answer.lines(), order.requestedLines())) {
                return "reserve #" + answer.index() + " answered lines " + OpText.lines(nonNull(answer.lines()))
                        + " but the order asked for " + OpText.lines(order.requestedLines())
                        + (i > 0 ? " and was first answered " + OpText.lines(nonNull(answers.getFirst().lines())) : "");
            }
        }
        return null;
    }

    private static String replayProblem(List<Op> answers) {
        return answers.stream().skip(1).filter(a -> !Boolean.TRUE.equals(a.replayed())).findFirst()
                .map(a -> a.f() + " #" + a.index() + " followed an acknowledged " + a.f()
                        + " but was not answered as a replay")
                .orElse(null);
    }

    private static int status(Op answer) {
        return answer.status() == null ? 0 : answer.status();
    }

    private static List<Op.Line> nonNull(List<Op.Line> lines) {
        return lines == null ? List.of() : lines;
    }
}
