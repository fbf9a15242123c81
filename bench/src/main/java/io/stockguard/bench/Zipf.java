package io.stockguard.bench;

import java.util.Arrays;
import java.util.Random;

/** Zipf(s) over ranks 0..n-1 by inverse transform on a precomputed CDF: exact and deterministic. */
final class Zipf {

    private final double[] cumulative;

    Zipf(int n, double exponent) {
        cumulative = new double[n];
        double sum = 0;
        for (int rank = 1; rank <= n; rank++) {
            sum += 1 / Math.pow(rank, exponent);
            cumulative[rank - 1] = sum;
        }
        for (int i = 0; i < n; i++) {
            cumulative[i] /= sum;
        }
    }

    int sample(Random random) {
        int index = Arrays.binarySearch(cumulative, random.nextDouble());
        return Math.min(index >= 0 ? index : -index - 1, cumulative.length - 1);
    }
}
