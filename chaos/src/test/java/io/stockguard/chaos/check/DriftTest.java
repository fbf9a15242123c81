package io.stockguard.chaos.check;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static io.stockguard.chaos.check.Scenarios.accepts;
import static io.stockguard.chaos.check.Scenarios.rejects;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DriftTest {

    private static RuleResult drift(HistoryFixtures fixtures) {
        return Scenarios.check(fixtures).result("drift");
    }

    private static HistoryFixtures sku() {
        return history().sku("SKU-1", 10).at(60_000).finalSku("SKU-1", 10, 10, 0, 0);
    }

    private static Map<String, Long> inStep() {
        return Map.of("hot.0.available", 10L, "hot.0.reserved", 0L, "hot.0.sold", 0L,
                "db.0.available", 10L, "db.0.reserved", 0L, "db.0.sold", 0L);
    }

    @Test
    void acceptsCleanRun() {
        accepts(drift(Scenarios.cleanRun()));
    }

    @Test
    void acceptsDatabaseTierBucketsWithoutHotCopy() {
        accepts(drift(sku().probe("SKU-1", 0, 0, 0).buckets("SKU-1", Map.of("db.0.available", 10L,
                "db.0.reserved", 0L, "db.0.sold", 0L))));
    }

    @Test
    void rejectsNonZeroDrift() {
        rejects(drift(sku().probe("SKU-1", 3, 0, 0).buckets("SKU-1", inStep())), 1,
                "SKU SKU-1: the final probe reports driftUnits=3",
                "final    OK     probe sku=SKU-1 -> 200 {driftUnits=3, regression=0, unmeasured=0}");
    }

    @Test
    void rejectsRegressionAndUnmeasuredProbes() {
        rejects(drift(sku().probe("SKU-1", 0, 1, 0).buckets("SKU-1", inStep())), 1,
                "the final probe reports regression=1");
        rejects(drift(sku().probe("SKU-1", 0, 0, 1).buckets("SKU-1", inStep())), 1,
                "the final probe reports unmeasured=1");
    }

    @Test
    void rejectsFailedProbe() {
        HistoryFixtures fixtures = sku().buckets("SKU-1", inStep());
        rejects(drift(fixtures.probeRead("SKU-1").unavailable()), 1, "SKU SKU-1: the final probe failed");
    }

    @Test
    void rejectsHotBucketDifferentFromDatabase() {
        Map<String, Long> apart = new HashMap<>(inStep());
        apart.put("hot.0.available", 12L);
        rejects(drift(sku().probe("SKU-1", 0, 0, 0).buckets("SKU-1", apart)), 1,
                "SKU SKU-1: bucket 0.available is 12 in the hot store but 10 in the database",
                "final    OK     buckets sku=SKU-1");
    }
}
