package io.stockguard.journal;

import java.util.List;

/**
 * Where the hot store's changes become durable before they are acknowledged (I2): the database
 * itself (standard tier, group-committed) or a queue (full tier). A failure is thrown as
 * {@link JournalUnavailableException} and says whether the events may have been recorded.
 */
public interface DurableJournal {

    /** Records the events and returns, per event, what became of it. */
    List<EventOutcome> record(List<StockEvent> events);

    /** The journal could not take the events. */
    final class JournalUnavailableException extends RuntimeException {

        private final boolean maybeRecorded;

        public JournalUnavailableException(String message, boolean maybeRecorded, Throwable cause) {
            super(message, cause);
            this.maybeRecorded = maybeRecorded;
        }

        /** True when the failure struck while committing: the events may be durable after all. */
        public boolean maybeRecorded() {
            return maybeRecorded;
        }
    }
}
