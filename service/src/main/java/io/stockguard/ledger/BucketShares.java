package io.stockguard.ledger;

/** How a quantity is split over buckets. Pure arithmetic; the shares always sum to the quantity. */
final class BucketShares {

    private BucketShares() {
    }

    /** Equal shares; the first {@code quantity mod buckets} buckets get one more. */
    static long[] even(long quantity, int buckets) {
        long[] shares = new long[buckets];
        long base = quantity / buckets;
        long remainder = quantity % buckets;
        for (int i = 0; i < buckets; i++) {
            shares[i] = base + (i < remainder ? 1 : 0);
        }
        return shares;
    }

    /**
     * Shares of {@code quantity} proportional to each bucket's {@code available}, never more than
     * a bucket has. Rounding leftovers are taken from the fullest buckets. The caller guarantees
     * {@code quantity <= sum(available)}.
     */
    static long[] proportional(long quantity, long[] available) {
        long sum = 0;
        for (long a : available) {
            sum += a;
        }
        if (quantity > sum) {
            throw new IllegalArgumentException("cannot take " + quantity + " from " + sum);
        }
        long[] shares = new long[available.length];
        long taken = 0;
        for (int i = 0; i < available.length && sum > 0; i++) {
            shares[i] = Math.min(available[i], multiplyDivide(quantity, available[i], sum));
            taken += shares[i];
        }
        while (taken < quantity) {
            int fullest = -1;
            for (int i = 0; i < available.length; i++) {
                if (available[i] - shares[i] > 0 && (fullest < 0
                        || available[i] - shares[i] > available[fullest] - shares[fullest])) {
                    fullest = i;
                }
            }
            shares[fullest]++;
            taken++;
        }
        return shares;
    }

    /** a * b / c without overflow for the sizes StockGuard allows (each below 10^12). */
    private static long multiplyDivide(long a, long b, long c) {
        return java.math.BigInteger.valueOf(a).multiply(java.math.BigInteger.valueOf(b))
                .divide(java.math.BigInteger.valueOf(c)).longValueExact();
    }
}
