package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A fault from the nemesis's first move to its heal: the invocation of {@code <fault>} to the
 * acknowledgement of {@code heal-<fault>}.
 *
 * @param fault the fault's name, e.g. {@code kill-redis}
 * @param detail what the nemesis said it did (may be null)
 * @param startedAt when the nemesis began injecting it
 * @param healedAt when its heal was acknowledged; -1 when the history has no heal for it
 * @param settledBy how long after the heal the load can be watched for recovery: the next fault's
 *     invocation or the last client answer, whichever comes first; -1 when never healed
 */
public record FaultSpan(String fault, String detail, long startedAt, long healedAt, long settledBy) {

    public boolean healed() {
        return healedAt >= 0;
    }

    /** When the fault stopped counting: its heal, or the end of the history. */
    public long endedAt(long endOfHistory) {
        return healed() ? healedAt : endOfHistory;
    }

    /** The history's faults in the order they were injected; a heal closes the oldest open fault of its name. */
    public static List<FaultSpan> of(Evidence evidence) {
        List<Op> ops = evidence.ops();
        long lastAnswer = evidence.lastClientAnswerAt().orElse(-1);
        Set<Long> claimedHeals = new HashSet<>();
        List<FaultSpan> spans = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            Op fault = ops.get(i);
            if (!Evidence.isFaultInvoke(fault)) {
                continue;
            }
            String detail = fault.detail();
            long healedAt = -1;
            for (int j = i + 1; j < ops.size() && healedAt < 0; j++) {
                Op later = ops.get(j);
                if (Evidence.NEMESIS.equals(later.process()) && later.f().equals(fault.f()) && later.detail() != null) {
                    detail = later.detail(); // the acknowledgement says what was actually done
                }
                if (Evidence.isHeal(later) && later.f().equals(Evidence.HEAL_PREFIX + fault.f())
                        && claimedHeals.add(later.index())) {
                    healedAt = later.atMillis();
                }
            }
            spans.add(new FaultSpan(fault.f(), detail, fault.atMillis(), healedAt,
                    healedAt < 0 ? -1 : settledBy(ops, healedAt, lastAnswer)));
        }
        return spans;
    }

    /** The end of the quiet after a heal at {@code healAt}: the next fault's invocation, or the last answer. */
    static long settledBy(List<Op> ops, long healAt, long lastAnswer) {
        long end = lastAnswer;
        for (Op op : ops) {
            if (Evidence.isFaultInvoke(op) && op.atMillis() > healAt) {
                end = Math.min(end, op.atMillis());
            }
        }
        return end;
    }
}
