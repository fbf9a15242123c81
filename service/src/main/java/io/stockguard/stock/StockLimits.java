package io.stockguard.stock;

import java.time.Duration;

/**
 * Every size the API accepts has an upper bound, chosen well above any real order so that a
 * legitimate caller never meets it and a broken one is stopped before it reaches a store.
 */
public final class StockLimits {

    /** Identifiers are short, printable and safe in URLs, Redis keys and log lines. */
    public static final String ID_PATTERN = "[A-Za-z0-9][A-Za-z0-9._:-]{0,63}";
    public static final int ID_LENGTH_MAX = 64;
    public static final int LINES_PER_ORDER_MAX = 100;
    public static final int QUANTITY_PER_LINE_MAX = 1_000_000;
    /** Large enough for any catalogue, small enough that sums of buckets never overflow a long. */
    public static final long TOTAL_MAX = 1_000_000_000_000L;
    public static final int BUCKETS_MAX = 64;
    public static final int BUCKETS_DEFAULT = 8;
    public static final Duration TTL_MIN = Duration.ofSeconds(1);
    public static final Duration TTL_MAX = Duration.ofDays(7);
    public static final int REASON_LENGTH_MAX = 500;

    private StockLimits() {
    }
}
