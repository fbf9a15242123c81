package io.stockguard.ledger;

/**
 * The database ledger's split of a stock change over buckets ({@link BucketShares}), opened to the
 * tests of other packages: stock.lua must split a change exactly as the database does.
 */
public final class DatabaseSplit {

    private DatabaseSplit() {
    }

    /** An addition: equal shares, the first buckets taking the remainder. */
    public static long[] even(long quantity, int buckets) {
        return BucketShares.even(quantity, buckets);
    }

    /** A removal: proportional to each bucket's available stock, never more than it has. */
    public static long[] proportional(long quantity, long[] available) {
        return BucketShares.proportional(quantity, available);
    }
}
