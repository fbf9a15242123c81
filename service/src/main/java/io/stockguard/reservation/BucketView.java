package io.stockguard.reservation;

/** The counters of one bucket. */
public record BucketView(int bucket, long available, long reserved, long sold) {

    public long total() {
        return available + reserved + sold;
    }
}
