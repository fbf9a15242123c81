package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;

/**
 * A change applies only if it leaves every counter of its bucket at zero or above (I1). One that
 * does not fit yet waits for its bucket while the hot store's R - J equals the database's D - A:
 * every journaled change moves both alike, so only changes preceding it in the hot bucket can be
 * missing. When they differ the hot store drifted, and the change is refused, unless it is a
 * retry: its caller was answered when it first came, and it stays waiting.
 */
final class CounterFit {

    private CounterFit() {
    }

    static Verdict judge(StockEvent event, BucketSet set, Attempt attempt) {
        if (set.fits(event)) {
            return Verdict.PASS;
        }
        Long hotBase = event.hotBase();
        if (hotBase != null && hotBase == set.base(event.bucket())) {
            return attempt == Attempt.RETRY ? Verdict.NOT_YET : new Verdict.Wait(Waiting.BUCKET);
        }
        if (attempt == Attempt.RETRY) {
            return Verdict.NOT_YET;
        }
        return new Verdict.Refuse(EventOutcome.Reason.WOULD_GO_NEGATIVE, "bucket " + event.bucket()
                + " cannot take " + event.op() + " of " + event.qty() + (hotBase == null ? ""
                : ": the hot store's R - J is " + hotBase + ", the database's D - A is " + set.base(event.bucket())));
    }
}
