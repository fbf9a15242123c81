package io.stockguard.chaos.check;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static io.stockguard.chaos.check.Scenarios.accepts;
import static io.stockguard.chaos.check.Scenarios.rejects;

import io.stockguard.chaos.history.Op;
import java.util.List;
import org.junit.jupiter.api.Test;

class BankTest {

    private static RuleResult bank(HistoryFixtures fixtures) {
        return Scenarios.check(fixtures).result("bank");
    }

    /** SKU-1 with 10: o1 holds 2, o2 bought 3 (commit). */
    private static HistoryFixtures twoOrders() {
        return history().sku("SKU-1", 10)
                .reserve("c0", "o1", "SKU-1:2").created()
                .sell("c1", "o2", "SKU-1:3").created()
                .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:2").finalOrder("o2", "CONFIRMED", "SKU-1:3");
    }

    @Test
    void acceptsCleanRun() {
        accepts(bank(Scenarios.cleanRun()));
    }

    @Test
    void acceptsCountersThatMatchTheOrders() {
        accepts(bank(twoOrders().finalSku("SKU-1", 10, 5, 2, 3)));
    }

    @Test
    void rejectsReservedCounterDisagreeingWithOrdersByTwoUnits() {
        rejects(bank(twoOrders().finalSku("SKU-1", 10, 3, 4, 3)), 1,
                "SKU SKU-1: reserved 4 but RESERVED orders hold 2 (off by 2)",
                "final    OK     read-sku sku=SKU-1 -> 200 {total=10 available=3 reserved=4 sold=3",
                "final    OK     read-order order=o1 [SKU-1x2] -> 200 RESERVED");
    }

    @Test
    void rejectsSoldCounterDisagreeingWithOrders() {
        rejects(bank(twoOrders().finalSku("SKU-1", 10, 6, 2, 2)), 1,
                "SKU SKU-1: sold 2 but CONFIRMED orders hold 3 (off by -1)");
    }

    @Test
    void rejectsCountersThatDoNotAddUpToTheTotal() {
        rejects(bank(twoOrders().finalSku("SKU-1", 10, 6, 2, 3)), 1,
                "SKU SKU-1: available 6 + reserved 2 + sold 3 = 11 but total is 10");
    }

    @Test
    void rejectsTotalInflatedByTwoWithoutRestock() {
        rejects(bank(twoOrders().finalSku("SKU-1", 12, 7, 2, 3)), 1,
                "SKU SKU-1: total 12 but the initial 10 with the restocks and adjustments that landed allows 10"
                        + " (off by 2)");
    }

    @Test
    void acceptsRestockInDoubtWhetherItLandedOrNot() {
        HistoryFixtures landed = twoOrders().restock("c2", "SKU-1", 5, "r1").info().finalSku("SKU-1", 15, 10, 2, 3);
        HistoryFixtures lost = twoOrders().restock("c2", "SKU-1", 5, "r1").info().finalSku("SKU-1", 10, 5, 2, 3);
        accepts(bank(landed));
        accepts(bank(lost));
    }

    @Test
    void countsRetriedRestockOnceByItsRequestId() {
        HistoryFixtures retried = twoOrders()
                .restock("c2", "SKU-1", 5, "r1").info()
                .restock("c2", "SKU-1", 5, "r1").ok()
                .adjust("c2", "SKU-1", -1, "a1").ok();
        accepts(bank(retried.finalSku("SKU-1", 14, 9, 2, 3)));
        rejects(bank(twoOrders().restock("c2", "SKU-1", 5, "r1").info().restock("c2", "SKU-1", 5, "r1").ok()
                .finalSku("SKU-1", 20, 15, 2, 3)), 1, "total 20", "allows 15 (off by 5)");
    }

    @Test
    void rejectsRestockRefusedThatRaisedTheTotal() {
        rejects(bank(twoOrders().restock("c2", "SKU-1", 5, "r1").unavailable().finalSku("SKU-1", 15, 10, 2, 3)),
                1, "total 15", "allows 10 (off by 5)", "restock sku=SKU-1 qty=5 request=r1 -> 503 UNAVAILABLE");
    }

    @Test
    void acceptsNegativeAdjustmentInDoubt() {
        accepts(bank(twoOrders().adjust("c2", "SKU-1", -4, "a1").info().finalSku("SKU-1", 6, 1, 2, 3)));
    }

    @Test
    void rejectsOversellSeenInReadDuringRun() {
        rejects(bank(twoOrders().finalSku("SKU-1", 10, 5, 2, 3)
                        .at(30_000).readSku("c3", "SKU-1").stock(10, 0, 6, 5)), 1,
                "SKU SKU-1: a read during the run shows reserved 6 + sold 5 over total 10",
                "c3       OK     read-sku sku=SKU-1 -> 200 {total=10 available=0 reserved=6 sold=5");
    }

    @Test
    void rejectsNegativeBucketSeenInReadDuringRun() {
        Op.Stock negative = new Op.Stock(10, 5, 2, 3, "NORMAL",
                List.of(new long[] {6, 1, 3}, new long[] {-1, 1, 0}));
        rejects(bank(twoOrders().finalSku("SKU-1", 10, 5, 2, 3).at(30_000).readSku("c3", "SKU-1").stock(negative)),
                1, "a read during the run shows a negative count in bucket 1");
    }

    @Test
    void acceptsHoldThatExpiredBetweenTheFinalReads() {
        // read RESERVED at 60 s, its 60 s hold then expired before the SKU was read
        accepts(bank(history().sku("SKU-1", 10)
                .at(1_000).hold("c0", "o1", 60, "SKU-1:2").created()
                .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:2")
                .at(62_000).finalSku("SKU-1", 10, 10, 0, 0)));
    }

    @Test
    void rejectsReleasedHoldWhoseTtlHadNotPassedAtTheFinalReads() {
        // every fault, the clock's included, is healed before the final reads: no early expiry then
        rejects(bank(history().sku("SKU-1", 10)
                        .at(1_000).hold("c0", "o1", 60, "SKU-1:2").created()
                        .at(60_000).finalOrder("o1", "RESERVED", "SKU-1:2")
                        .at(60_500).finalSku("SKU-1", 10, 10, 0, 0)), 1,
                "SKU SKU-1: reserved 0 but RESERVED orders hold 2 (off by -2)");
    }

    @Test
    void accountsOnlyCataloguedSkusAtTheEndButChecksEveryRead() {
        HistoryFixtures fixtures = twoOrders().finalSku("SKU-1", 10, 5, 2, 3)
                .restock("c2", "NO-SUCH-SKU", 5, "r1").fail(404, "UNKNOWN_SKU");
        accepts(bank(fixtures));
        rejects(bank(fixtures.readSku("c2", "NO-SUCH-SKU").stock(2, -1, 1, 1)), 1,
                "SKU NO-SUCH-SKU: a read during the run shows a negative count");
    }

    @Test
    void rejectsSkuWithoutFinalRead() {
        rejects(bank(twoOrders()), 1, "SKU SKU-1: no acknowledged final read-sku");
    }
}
