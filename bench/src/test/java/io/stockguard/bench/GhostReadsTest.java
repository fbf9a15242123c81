package io.stockguard.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
        // Reads answer the stock as it was at the start, forever: every read sent past the bound is a ghost.
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

    /** Queries after the sell-out wait until it is older than the ghost bound, so some are judged. */
    private static RunResult run(Shelf shelf) throws Exception {
        return new Runner(Duration.ofSeconds(30), WarmUp.ofThisJvm(Duration.ZERO), "ghost", Profiler.OFF).run(MIXED, shelf, 4, 1);
    }

    /** A store of one SKU in memory (the checker is what is tested). */
    private static final class Shelf implements Contender {

        private final boolean truthful;
        private static final long NOT_YET = Long.MIN_VALUE;
        private final AtomicLong left = new AtomicLong();
        /** When a reservation was first refused for want of stock. */
        private final AtomicLong soldOutAt = new AtomicLong(NOT_YET);
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
            soldOutAt.set(NOT_YET);
        }

        @Override
        public Session open() {
            return new Session() {
                @Override
                public Attempt reserve(String sku, int qty, String orderId) {
                    if (left.getAndUpdate(n -> n >= qty ? n - qty : n) >= qty) {
                        return Attempt.SOLD;
                    }
                    soldOutAt.compareAndSet(NOT_YET, System.nanoTime());
                    return Attempt.SOLD_OUT;
                }

                @Override
                public long read(String sku) {
                    long at = soldOutAt.get();
                    if (at != NOT_YET && System.nanoTime() - at <= Runner.GHOST_AFTER.toNanos()) {
                        // Past the sell-out, a query waits until it is older than the ghost bound, so the
                        // queries sent after this one are judged.
                        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                                .until(() -> System.nanoTime() - at > Runner.GHOST_AFTER.toNanos());
                    }
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
