package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.List;

/**
 * How long the load took to recover after a heal: the first whole second after it from which every
 * second, up to the next fault or the end of the load, had answers and enough of them definite.
 *
 * @param recovered whether such a second exists
 * @param seconds that second, counted from the heal (0: at once); -1 when not recovered or not measured
 * @param measuredSeconds whole seconds watched after the heal (0: nothing to judge)
 */
public record Recovery(boolean recovered, long seconds, long measuredSeconds) {

    public static Recovery measure(List<Op> clientAnswers, long healAt, long settledBy, double minDefinite) {
        int buckets = (int) Math.max(0, (settledBy - healAt) / 1000);
        int[] answers = new int[buckets];
        int[] definite = new int[buckets];
        for (Op answer : clientAnswers) {
            long offset = answer.atMillis() - healAt;
            if (offset >= 0 && offset / 1000 < buckets) {
                answers[(int) (offset / 1000)]++;
                definite[(int) (offset / 1000)] += answer.definite() ? 1 : 0;
            }
        }
        int from = buckets;
        // an empty second is not live: the clients were waiting for answers that did not come
        while (from > 0 && answers[from - 1] > 0 && definite[from - 1] >= minDefinite * answers[from - 1]) {
            from--;
        }
        return from < buckets ? new Recovery(true, from, buckets) : new Recovery(false, -1, buckets);
    }

    /** "recovered 3 s after the heal", "not recovered within 40 s", or why it was not measured. */
    public String describe() {
        return measuredSeconds == 0 ? "recovery not measured (no whole second before the next fault or the end)"
                : recovered ? "recovered " + seconds + " s after the heal"
                : "not recovered within " + measuredSeconds + " s";
    }
}
