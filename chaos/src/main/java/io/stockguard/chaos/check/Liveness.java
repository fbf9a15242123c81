package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The service comes back. After each heal, the answers completed in the liveness window (by default
 * 10 s to 20 s after it, clipped at the next fault and at the end of the load) exist and are mostly
 * definite; each fault's time to recover is reported. No single operation stays without a definite
 * answer longer than {@link CheckOptions#inDoubtAfterHealMillis()} after the heal of the last
 * fault that began before it was settled (or after it began, when that is later); each fault's
 * longest is reported. A run planned without faults must be entirely definite, and must never
 * have left the hot store (no database fallback, no takeover); so must the fault-free stretch at
 * the start of a run with faults, judged by the answers before the first fault and the metrics
 * read when it ended.
 */
final class Liveness extends Rule {

    static final String NAME = "liveness";

    Liveness() {
        super(NAME);
    }

    @Override
    String judge(Evidence evidence, CheckOptions options, Violations violations) {
        List<String> notes = new ArrayList<>();
        List<Op> heals = evidence.ops().stream().filter(Evidence::isHeal).toList();
        for (Op heal : heals) {
            notes.add(judgeHeal(heal, evidence, options.liveness(), violations));
        }
        notes.add(judgeDoubts(evidence, options.inDoubtAfterHealMillis(), violations));
        if (!options.faultsPlanned()) {
            notes.add(judgeFaultFree("no faults planned", evidence.clientAnswers(), evidence.metrics(),
                    options.noFault(), violations));
        } else {
            long firstFault = evidence.firstFaultAt().orElse(Long.MAX_VALUE);
            List<Op> before = evidence.clientAnswers().stream().filter(a -> a.atMillis() < firstFault).toList();
            if (!evidence.warmUpMetrics().isEmpty()) {
                notes.add(judgeFaultFree("before the first fault", before, evidence.warmUpMetrics(),
                        options.noFault(), violations));
            }
            if (heals.isEmpty()) {
                notes.add("faults were planned but the history has no heal to judge");
            }
        }
        return (violations.none() ? "" : violations.count() + " liveness violations; ")
                + String.join("; ", notes);
    }

    private static String judgeHeal(Op heal, Evidence evidence, CheckOptions.LivenessWindow window,
            Violations violations) {
        long lastAnswer = evidence.lastClientAnswerAt().orElse(heal.atMillis());
        long settledBy = FaultSpan.settledBy(evidence.ops(), heal.atMillis(), lastAnswer);
        long from = heal.atMillis() + window.fromMillis();
        long to = Math.min(heal.atMillis() + window.toMillis(), settledBy);
        Recovery recovery = Recovery.measure(evidence.clientAnswers(), heal.atMillis(), settledBy,
                window.minDefinite());
        String name = heal.f() + " at " + OpText.seconds(heal.atMillis());
        if (to - from < window.minWindowMillis()) {
            return name + ": skipped, its window is " + Math.max(0, to - from)
                    + " ms after clipping (next fault or end)"
                    + "; " + recovery.describe();
        }
        List<Op> answers = evidence.clientAnswers().stream().filter(a -> a.atMillis() >= from && a.atMillis() <= to)
                .toList();
        long definite = answers.stream().filter(Op::definite).count();
        String share = definite + "/" + answers.size() + " definite (" + percent(definite, answers.size())
                + ") from " + OpText.seconds(from) + " to " + OpText.seconds(to);
        if (answers.isEmpty() || definite < window.minDefinite() * answers.size()) {
            List<Op> shown = new ArrayList<>(List.of(heal));
            answers.stream().filter(a -> !a.definite()).forEach(shown::add);
            violations.add(name + ": " + (answers.isEmpty() ? "no answer at all" : share) + ", below "
                    + percent(window.minDefinite()) + " definite", shown);
        }
        return name + ": " + share + "; " + recovery.describe();
    }

    /**
     * Each operation in doubt against its deadline: the heal of the last fault that began before it
     * was settled (or before the load ended, if it never was), or its own start when that is later,
     * plus the allowance. An operation the load ended on before its deadline is not judged.
     */
    private static String judgeDoubts(Evidence evidence, long allowanceMillis, Violations violations) {
        List<FaultSpan> faults = FaultSpan.of(evidence);
        long end = evidence.lastClientAnswerAt().orElse(0);
        java.util.Map<FaultSpan, Long> longest = new java.util.LinkedHashMap<>();
        long longestWithoutFault = 0;
        int inDoubt = 0;
        for (Doubts.Doubt doubt : Doubts.of(evidence.ops())) {
            inDoubt++;
            long until = doubt.settled() ? doubt.settledAt() : end;
            FaultSpan fault = null;
            for (FaultSpan span : faults) {
                if (span.startedAt() <= until) {
                    fault = span;
                }
            }
            if (fault != null && !fault.healed()) {
                continue;
            }
            long from = fault == null ? doubt.startedAt() : Math.max(fault.healedAt(), doubt.startedAt());
            long deadline = from + allowanceMillis;
            long beyondHeal = until - (fault == null ? doubt.startedAt() : fault.healedAt());
            if (fault != null) {
                longest.merge(fault, Math.max(0, beyondHeal), Math::max);
            } else {
                longestWithoutFault = Math.max(longestWithoutFault, until - doubt.startedAt());
            }
            if (doubt.settled() ? doubt.settledAt() > deadline : end >= deadline) {
                violations.add(doubt.process() + " " + doubt.f() + " " + doubt.subject() + " stayed without a definite "
                        + "answer " + (doubt.settled() ? "until " + OpText.seconds(doubt.settledAt()) : "to the end")
                        + (fault == null ? ", with no fault before it" : ", " + (until - fault.healedAt())
                        + " ms after the heal of " + fault.fault()) + " (at most " + allowanceMillis + " ms)",
                        doubt.ops());
            }
        }
        StringBuilder note = new StringBuilder(inDoubt + " operations were in doubt for a while");
        longest.forEach((fault, millis) -> note.append("; after ").append(fault.fault()).append(" at most ")
                .append(millis).append(" ms beyond its heal"));
        if (longestWithoutFault > 0) {
            note.append("; before any fault at most ").append(longestWithoutFault).append(" ms");
        }
        return note.toString();
    }

    private static String judgeFaultFree(String stretch, List<Op> answers, List<Attempt> readings,
            CheckOptions.NoFaultThresholds limits, Violations violations) {
        long definite = answers.stream().filter(Op::definite).count();
        String share = stretch + ": " + definite + "/" + answers.size() + " answers definite ("
                + percent(definite, answers.size()) + ")";
        if (answers.isEmpty() || definite < limits.minDefinite() * answers.size()) {
            violations.add(share + ", below " + percent(limits.minDefinite()),
                    answers.stream().filter(a -> !a.definite()).toList());
        }
        long fallbacks = 0;
        long takeovers = 0;
        for (Attempt metrics : readings) {
            if (!metrics.acknowledged() || metrics.answer().numbers() == null) {
                violations.add("metrics of instance " + metrics.invoke().instance() + " could not be read",
                        metrics.ops());
                continue;
            }
            fallbacks += metrics.answer().numbers().getOrDefault(Op.Final.DATABASE_FALLBACKS, 0L);
            takeovers += metrics.answer().numbers().getOrDefault(Op.Final.TAKEOVERS, 0L);
        }
        if (readings.isEmpty()) {
            violations.add(stretch + ", but no metrics were recorded to show the hot store held", List.of());
        }
        String left = fallbacks + " database fallbacks, " + takeovers + " takeovers";
        if (fallbacks > limits.maxDatabaseFallbacks() || takeovers > limits.maxTakeovers()) {
            violations.add(stretch + ", yet " + left + " (at most " + limits.maxDatabaseFallbacks() + " and "
                    + limits.maxTakeovers() + " allowed)", readings.stream().flatMap(a -> a.ops().stream()).toList());
        }
        return share + ", " + left;
    }

    static String percent(long part, long whole) {
        return whole == 0 ? "n/a" : percent((double) part / whole);
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f%%", share * 100);
    }
}
