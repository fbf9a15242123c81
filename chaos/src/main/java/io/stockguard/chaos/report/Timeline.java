package io.stockguard.chaos.report;

import io.stockguard.chaos.check.CheckOptions;
import io.stockguard.chaos.check.Evidence;
import io.stockguard.chaos.check.FaultSpan;
import io.stockguard.chaos.check.Recovery;
import io.stockguard.chaos.history.History;
import io.stockguard.chaos.history.Op;
import java.util.ArrayList;
import java.util.List;

/**
 * The load's answers second by second, by what they proved, with the nemesis's marks; and each
 * fault's own figures. What both reports draw.
 */
public final class Timeline {

    /** What an answer proved. */
    public enum Outcome {
        /** 2xx. */
        OK,
        /** a 4xx: a definite refusal. */
        REFUSED,
        /** a 503 UNAVAILABLE (or another refusal outside 4xx): certainly not applied, but not served. */
        UNAVAILABLE,
        /** no answer, a timeout, 503 OUTCOME_UNKNOWN: nobody knows. */
        UNKNOWN;

        public static Outcome of(Op completion) {
            return switch (completion.type()) {
                case OK -> OK;
                case INFO, INVOKE -> UNKNOWN;
                case FAIL -> completion.definite() ? REFUSED : UNAVAILABLE;
            };
        }
    }

    /**
     * One second of the run: the client answers completed in it by outcome.
     *
     * @param second seconds since the run started
     * @param marks nemesis moves in it: a fault's name when it began, {@code heal-…} when it was healed
     * @param underFault whether some fault was in effect during it
     */
    public record Second(long second, int ok, int refused, int unavailable, int unknown, List<String> marks,
            boolean underFault) {

        public int count(Outcome outcome) {
            return switch (outcome) {
                case OK -> ok;
                case REFUSED -> refused;
                case UNAVAILABLE -> unavailable;
                case UNKNOWN -> unknown;
            };
        }

        public int total() {
            return ok + refused + unavailable + unknown;
        }
    }

    /**
     * A fault's figures: the client answers completed while it was in effect, how many were
     * definite, and how long the load took to recover after its heal.
     */
    public record Fault(FaultSpan span, int answers, int definite, Recovery recovery) {

        public double definiteShare() {
            return answers == 0 ? 0 : (double) definite / answers;
        }
    }

    private final List<Second> seconds;
    private final List<Fault> faults;
    private final long endMillis;

    private Timeline(List<Second> seconds, List<Fault> faults, long endMillis) {
        this.seconds = seconds;
        this.faults = faults;
        this.endMillis = endMillis;
    }

    public static Timeline of(History history, CheckOptions options) {
        Evidence evidence = Evidence.of(history);
        List<Op> answers = evidence.clientAnswers();
        List<Op> nemesis = evidence.ops().stream().filter(o -> Evidence.NEMESIS.equals(o.process())).toList();
        long end = 0;
        for (Op op : answers) {
            end = Math.max(end, op.atMillis());
        }
        for (Op op : nemesis) {
            end = Math.max(end, op.atMillis());
        }
        List<FaultSpan> spans = FaultSpan.of(evidence);
        int length = (int) (end / 1000) + 1;
        int[][] counts = new int[length][Outcome.values().length];
        for (Op answer : answers) {
            counts[(int) (answer.atMillis() / 1000)][Outcome.of(answer).ordinal()]++;
        }
        List<List<String>> marks = new ArrayList<>();
        for (int s = 0; s < length; s++) {
            marks.add(new ArrayList<>());
        }
        for (Op op : nemesis) {
            if (Evidence.isFaultInvoke(op) || Evidence.isHeal(op)) {
                marks.get((int) (op.atMillis() / 1000)).add(op.f());
            }
        }
        List<Second> seconds = new ArrayList<>(length);
        for (int s = 0; s < length; s++) {
            long from = s * 1000L;
            long to = from + 999;
            final long endMillis = end;
            boolean underFault = spans.stream().anyMatch(f -> f.startedAt() <= to && f.endedAt(endMillis) >= from);
            int[] c = counts[s];
            seconds.add(new Second(s, c[Outcome.OK.ordinal()], c[Outcome.REFUSED.ordinal()],
                    c[Outcome.UNAVAILABLE.ordinal()], c[Outcome.UNKNOWN.ordinal()], List.copyOf(marks.get(s)),
                    underFault));
        }
        double minDefinite = options.liveness().minDefinite();
        List<Fault> faults = new ArrayList<>();
        for (FaultSpan span : spans) {
            long until = span.endedAt(end);
            List<Op> during = answers.stream().filter(a -> a.atMillis() >= span.startedAt() && a.atMillis() <= until)
                    .toList();
            Recovery recovery = span.healed()
                    ? Recovery.measure(answers, span.healedAt(), span.settledBy(), minDefinite)
                    : new Recovery(false, -1, 0);
            faults.add(new Fault(span, during.size(), (int) during.stream().filter(Op::definite).count(), recovery));
        }
        return new Timeline(List.copyOf(seconds), List.copyOf(faults), end);
    }

    public static Timeline of(History history) {
        return of(history, CheckOptions.defaults(true));
    }

    public List<Second> seconds() {
        return seconds;
    }

    public List<Fault> faults() {
        return faults;
    }

    /** When the last answer or nemesis move happened. */
    public long endMillis() {
        return endMillis;
    }

    /** The most answers any second had. */
    public int peak() {
        return seconds.stream().mapToInt(Second::total).max().orElse(0);
    }
}
