package io.stockguard.bench;

/**
 * One way of taking stock, written the way its users write it. A contender holds its own store
 * state; {@link #load} resets it to the catalogue's stock before every run.
 */
public interface Contender extends AutoCloseable {

    /** Short, stable name used in tables, filters and reports, e.g. {@code db-for-update}. */
    String name();

    /** What it is, for the report: "SELECT … FOR UPDATE in one transaction". */
    String description();

    Family family();

    /** False for the naive techniques, which are expected to oversell under concurrency. */
    boolean claimsCorrectness();

    /** Resets the store to the catalogue's stock. */
    void load(Catalogue catalogue) throws Exception;

    /** One client's session, with its own connection, used by one thread. */
    Session open() throws Exception;

    /** Units the store says remain, per SKU index of the catalogue. */
    long[] remaining(Catalogue catalogue) throws Exception;

    /** What the contender saw inside the last run, for the log (e.g. batch sizes); may be empty. */
    default String notes() {
        return "";
    }

    @Override
    default void close() throws Exception {
    }

    enum Family { DATABASE, REDIS, STOCKGUARD }

    /** A client's connection to the store. */
    interface Session extends AutoCloseable {

        Attempt reserve(String sku, int qty, String orderId) throws Exception;

        /** A stock query: what a product page shows. */
        long read(String sku) throws Exception;

        @Override
        default void close() throws Exception {
        }
    }

    /** What one reservation attempt came to, and how many retries it took. */
    record Attempt(Outcome outcome, int retries) {
        public static final Attempt SOLD = new Attempt(Outcome.SOLD, 0);
        public static final Attempt SOLD_OUT = new Attempt(Outcome.SOLD_OUT, 0);
    }

    enum Outcome {
        /** Stock was taken. */
        SOLD,
        /** Refused: the store said there was not enough. */
        SOLD_OUT,
        /** Refused by the technique itself: retries or lock waits exhausted. */
        GAVE_UP,
        /** Failed with an error. */
        ERROR
    }
}
