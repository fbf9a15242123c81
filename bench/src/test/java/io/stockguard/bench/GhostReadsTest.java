package io.stockguard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The bench's ghost-read count is a checker: fed a store whose product page keeps showing stock
 * after the sell-out, it must count those reads; fed one that shows the truth, none.
 */
class GhostReadsTest {

    private static final Scenario MIXED = Scenario.mixedReads(50, 2_000);

    @Test
    void aPageThatKeepsShowingStockAfterTheSellOut_countsGhostReads() throws Exception {
        // Reads answer the stock as it was at the start, forever: every read sent well after the sell-out is a ghost.
        RunResult result = run(new Shelf(false));
        assertThat(result.sold()).isEqualTo(50);
        assertThat(result.ghostReads()).isPositive();
    }

    @Test
    void aPageThatShowsTheStockAsItIs_countsNone() throws Exception {
        RunResult result = run(new Shelf(true));
        assertThat(result.sold()).isEqualTo(50);
        assertThat(result.reads()).isPositive();
        assertThat(result.ghostReads()).isZero();
    }

    /** Clients pause between requests so that reads go on well past the sell-out and the ghost bound. */
    private static RunResult run(Shelf shelf) throws Exception {
        return new Runner(Duration.ofSeconds(30), Duration.ZERO, "ghost", Profiler.OFF).run(MIXED, shelf, 4, 1);
    }

    /** A store of one SKU in memory (the checker is what is tested), slowed to a few hundred requests a second. */
    private static final class Shelf implements Contender {

        private final boolean truthful;
        private final AtomicLong left = new AtomicLong();
        private long loaded;

        Shelf(boolean truthful) {
            this.truthful = truthful;
        }

        @Override
        public String name() {
            return truthful ? "truthful-shelf" : "stale-shelf";
        }

        @Override
        public String description() {
            return truthful ? "reads the count as it is" : "reads the count it was loaded with";
        }

        @Override
        public Family family() {
            return Family.STOCKGUARD;
        }

        @Override
        public boolean claimsCorrectness() {
            return true;
        }

        @Override
        public void load(Catalogue catalogue) {
            loaded = catalogue.unitsPerSku();
            left.set(loaded);
        }

        @Override
        public Session open() {
            return new Session() {
                @Override
                public Attempt reserve(String sku, int qty, String orderId) throws Exception {
                    Thread.sleep(1);
                    return left.getAndUpdate(n -> n >= qty ? n - qty : n) >= qty ? Attempt.SOLD : Attempt.SOLD_OUT;
                }

                @Override
                public long read(String sku) throws Exception {
                    Thread.sleep(1);
                    return truthful ? left.get() : loaded;
                }
            };
        }

        @Override
        public long[] remaining(Catalogue catalogue) {
            return new long[] {left.get()};
        }
    }
}
