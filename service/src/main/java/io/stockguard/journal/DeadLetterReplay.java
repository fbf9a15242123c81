package io.stockguard.journal;

import io.stockguard.platform.Caller;

/** Replays a dead letter: applies its event to the database once, audited. Full tier only. */
public interface DeadLetterReplay {

    /** What a replay came to. */
    sealed interface Replayed {
        /** Applied now (or found applied already: the event id is known), with the database's outcome. */
        record Applied(DeadLetter letter, String outcome) implements Replayed {
        }

        /** Replayed before: nothing was done. */
        record AlreadyReplayed(DeadLetter letter) implements Replayed {
        }

        /** No dead letter with this id. */
        record Unknown(long id) implements Replayed {
        }

        /** Applying it failed again; it stays open. */
        record Failed(DeadLetter letter, String error) implements Replayed {
        }
    }

    Replayed replay(long id, String reason, Caller caller);
}
