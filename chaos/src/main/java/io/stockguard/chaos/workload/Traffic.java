package io.stockguard.chaos.workload;

import java.time.Duration;

/**
 * The shape of the load over a run: which {@link Phase} the order services are in at a given time
 * since the load started. A chaos run keeps one steady mix from start to end (its faults are the
 * variable); the demo plays a peak: a quiet warm-up, the midnight spike on one SKU, the second
 * wave of stock queries, then the long tail of cancels, confirms and expiries.
 */
public interface Traffic {

    /** The chaos suite's: the same mix throughout, no stock-query threads. */
    Traffic STEADY = new Traffic() {
        @Override
        public Phase at(Duration sinceStart) {
            return Phase.STEADY;
        }

        @Override
        public int shopperThreads() {
            return 0;
        }
    };

    /** The phase the load is in {@code sinceStart} after it started. */
    Phase at(Duration sinceStart);

    /**
     * Threads beside the order services, each a stream of shoppers who do what the phase's
     * {@link Phase#shoppers()} says: nothing, refresh a product page, or place a new order.
     */
    int shopperThreads();

    /** What the shopper threads do in a phase. */
    enum Shoppers {
        /** They are not there. */
        IDLE,
        /** They refresh product pages: stock queries. */
        QUERY,
        /** Each places a new order, one after another. */
        ORDER
    }

    /**
     * How the order services behave in one stretch of the load.
     *
     * @param name what a person watching calls it
     * @param think pause of each order service between two operations (zero: none)
     * @param queryPerMille operations out of 1,000 that are stock queries before the usual mix
     * @param hotPerMille reservations and stock queries out of 1,000 that name the hot SKU
     * @param shoppers what the shopper threads do
     */
    record Phase(String name, Duration think, int queryPerMille, int hotPerMille, Shoppers shoppers) {

        /** The chaos suite's mix: no extra queries, 7 reservations in 10 on the hot SKU. */
        public static final Phase STEADY = new Phase("steady", Duration.ZERO, 0, 700, Shoppers.IDLE);

        public Phase {
            if (queryPerMille < 0 || queryPerMille > 1_000 || hotPerMille < 0 || hotPerMille > 1_000
                    || think.isNegative() || shoppers == null) {
                throw new IllegalArgumentException("a phase's shares are per mille and its think time not negative");
            }
        }
    }
}
