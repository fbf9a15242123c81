package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How long each client change stayed without a definite answer. An operation is one call and
 * the retries that followed its answers in doubt (a timeout, a 5xx): the client sends the same
 * request again, with the same id, until an answer settles it (a 2xx or a 4xx). Its time in doubt
 * runs from its first attempt to that answer; an operation the client gave up on (or the load
 * ended on) is unresolved.
 */
final class Doubts {

    /**
     * One operation that did not get a definite answer at once.
     *
     * @param startedAt its first attempt's invocation
     * @param settledAt the definite answer's completion; -1 when it never came
     * @param ops every attempt's invocation and completion, for the report
     */
    record Doubt(String process, String f, String subject, long startedAt, long settledAt, List<Op> ops) {

        boolean settled() {
            return settledAt >= 0;
        }
    }

    /** The operations that change something; a read is not left in doubt, only unanswered. */
    private static final java.util.Set<String> CHANGES = java.util.Set.of("reserve", "confirm", "cancel", "extend",
            "restock", "adjust");

    private Doubts() {
    }

    /** Every operation of the history that was in doubt for a while, in the order they started. */
    static List<Doubt> of(List<Op> ops) {
        List<Doubt> doubts = new ArrayList<>();
        Map<String, Open> open = new HashMap<>();
        Map<String, Op> invoked = new HashMap<>();
        for (Op op : ops) {
            if (!op.isClient() || !CHANGES.contains(op.f())) {
                continue;
            }
            if (op.isInvoke()) {
                Open running = open.get(op.process());
                if (running != null && !running.sameOperation(op)) {
                    // The client moved on without a definite answer: it gave up on that one.
                    doubts.add(running.unresolved());
                    open.remove(op.process());
                }
                invoked.put(op.process(), op);
                continue;
            }
            Op invocation = invoked.remove(op.process());
            if (invocation == null) {
                continue;
            }
            Open running = open.get(op.process());
            if (op.definite()) {
                if (running != null) {
                    running.ops.add(invocation);
                    running.ops.add(op);
                    doubts.add(running.settledBy(op));
                    open.remove(op.process());
                }
                continue;
            }
            if (running == null) {
                running = new Open(invocation);
                open.put(op.process(), running);
            }
            running.ops.add(invocation);
            running.ops.add(op);
        }
        open.values().forEach(running -> doubts.add(running.unresolved()));
        doubts.sort(java.util.Comparator.comparingLong(Doubt::startedAt));
        return doubts;
    }

    /** An operation whose answers so far were in doubt. */
    private static final class Open {
        private final Op first;
        private final List<Op> ops = new ArrayList<>();

        Open(Op first) {
            this.first = first;
        }

        /** Whether {@code invoke} is a retry of this operation: same call, same order, SKU and request id. */
        boolean sameOperation(Op invoke) {
            return first.f().equals(invoke.f()) && Objects.equals(first.orderId(), invoke.orderId())
                    && Objects.equals(first.skuId(), invoke.skuId())
                    && Objects.equals(first.requestId(), invoke.requestId());
        }

        Doubt settledBy(Op answer) {
            return new Doubt(first.process(), first.f(), subject(), first.atMillis(), answer.atMillis(),
                    List.copyOf(ops));
        }

        Doubt unresolved() {
            return new Doubt(first.process(), first.f(), subject(), first.atMillis(), -1, List.copyOf(ops));
        }

        private String subject() {
            return first.orderId() != null ? first.orderId() : first.skuId();
        }
    }
}
