package io.stockguard.ledger;

import io.stockguard.journal.EventOutcome;

/**
 * What one rule of {@link ApplyPlan} makes of an event. The plan asks its rules in their order and
 * the first that does not let the event through decides; only the plan records what that does
 * (waits, anomalies, rows), so that a rule can be asked, and tested, on its own.
 */
sealed interface Verdict {

    /** Nothing against the event: the next rule decides. */
    Verdict PASS = new Pass();

    /** A retried event that still cannot apply: it stays waiting as it is stored, and nothing is recorded. */
    Verdict NOT_YET = new Answer(EventOutcome.Settled.DEFERRED);

    record Pass() implements Verdict {
    }

    /** Refused, and recorded as an anomaly: the hot store sent what the database cannot take. */
    record Refuse(EventOutcome.Reason reason, String detail) implements Verdict {
    }

    /**
     * Ends with {@code outcome}, recording nothing: a repeat, a refusal its caller hears that points
     * at nothing wrong in either store, or a refusal recorded where it was first made.
     */
    record Answer(EventOutcome outcome) implements Verdict {
    }

    /** Cannot apply yet, and nothing is wrong: the event is stored as waiting for {@code reason}. */
    record Wait(Waiting reason) implements Verdict {
    }

    /**
     * Let through, and recorded as an anomaly of the kind the synchronous journal would refuse it
     * for: a journal applied after acknowledgement cannot take back what its caller was told.
     */
    record Flag(EventOutcome.Reason kind, String detail) implements Verdict {
    }
}
