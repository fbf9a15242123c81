package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.List;
import java.util.Map;

/**
 * Once everything healed and the journal drained, the hot store and the database agree exactly:
 * every SKU's final probe measured, with no drift and no regression, and wherever both stores hold
 * a bucket they hold the same counts.
 */
final class Drift extends Rule {

    static final String NAME = "drift";

    private static final List<String> PROBE_FIGURES = List.of(Op.Final.DRIFT_UNITS, Op.Final.REGRESSION,
            Op.Final.UNMEASURED);

    Drift() {
        super(NAME);
    }

    @Override
    String judge(Evidence evidence, CheckOptions options, Violations violations) {
        int comparedBuckets = 0;
        for (SkuFacts sku : evidence.catalogue()) {
            String id = "SKU " + sku.skuId() + ": ";
            Attempt probe = sku.probe().orElse(null);
            String probeProblem = probe == null ? "no final probe"
                    : !probe.acknowledged() ? "the final probe failed"
                    : PROBE_FIGURES.stream().map(name -> nonZero(probe.answer().numbers(), name))
                            .filter(p -> p != null).findFirst().orElse(null);
            if (probeProblem != null) {
                violations.add(id + probeProblem, probe == null ? List.of() : probe.ops());
            }
            Attempt buckets = sku.buckets().orElse(null);
            if (buckets == null || !buckets.acknowledged() || buckets.answer().numbers() == null) {
                violations.add(id + (buckets == null ? "no final buckets read" : "the final buckets read failed"),
                        buckets == null ? List.of() : buckets.ops());
                continue;
            }
            Map<String, Long> numbers = buckets.answer().numbers();
            String mismatch = null;
            for (Map.Entry<String, Long> hot : numbers.entrySet()) {
                if (!hot.getKey().startsWith(Op.Final.HOT_PREFIX)) {
                    continue;
                }
                String figure = hot.getKey().substring(Op.Final.HOT_PREFIX.length());
                Long db = numbers.get(Op.Final.DB_PREFIX + figure);
                if (db == null) {
                    continue; // the database tier keeps no hot copy, and a bucket may be only in one store
                }
                comparedBuckets++;
                if (!db.equals(hot.getValue()) && mismatch == null) {
                    mismatch = id + "bucket " + figure + " is " + hot.getValue() + " in the hot store but " + db
                            + " in the database";
                }
            }
            if (mismatch != null) {
                violations.add(mismatch, buckets.ops());
            }
        }
        return violations.none()
                ? evidence.catalogue().size() + " SKUs probed clean; " + comparedBuckets
                        + " bucket figures equal in both stores"
                : violations.count() + " drift findings over " + evidence.catalogue().size() + " SKUs";
    }

    /** What is wrong with a probe figure that must be 0 (and present), or null. */
    private static String nonZero(Map<String, Long> numbers, String name) {
        Long value = numbers == null ? null : numbers.get(name);
        return value == null ? "the final probe did not report " + name
                : value != 0 ? "the final probe reports " + name + "=" + value : null;
    }
}
