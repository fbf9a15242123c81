package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;

/**
 * A frozen SKU sells nothing, but a hot store that had not yet seen the freeze may have sold:
 * the synchronous journal refuses that sale to its caller, who undoes it in the hot store. A
 * journal applied after acknowledgement cannot take a sale back, and a retried sale's caller
 * was answered when it first came: both apply.
 */
final class FrozenSku {

    private FrozenSku() {
    }

    /** @param strict a change not yet acknowledged, whose caller hears the outcome */
    static Verdict judge(StockEvent reserve, BucketSet set, boolean strict, Attempt attempt) {
        if (strict && attempt == Attempt.FIRST && !set.sells()) {
            return new Verdict.Answer(new EventOutcome.Rejected(EventOutcome.Reason.SKU_FROZEN,
                    "SKU " + reserve.skuId() + " is frozen"));
        }
        return Verdict.PASS;
    }
}
