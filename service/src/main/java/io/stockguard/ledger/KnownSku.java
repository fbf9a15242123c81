package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;

/** An event of a SKU the database does not have has no counters to apply to: it is refused. */
final class KnownSku {

    private KnownSku() {
    }

    /** @param set the SKU's buckets as the database has them, or null */
    static Verdict judge(BucketSet set) {
        if (set == null) {
            return new Verdict.Refuse(EventOutcome.Reason.UNKNOWN_SKU, "no such SKU in the database");
        }
        return Verdict.PASS;
    }
}
