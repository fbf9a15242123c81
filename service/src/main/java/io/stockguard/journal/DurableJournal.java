package io.stockguard.journal;

import java.util.List;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionSystemException;

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

        /**
         * What a database journal's failure means to its callers: one while committing may have
         * recorded the events; any other failure of the database recorded nothing; anything else
         * (a bug) is passed on as it is.
         */
        public static RuntimeException fromDatabase(RuntimeException failure) {
            if (failure instanceof TransactionSystemException) {
                return new JournalUnavailableException("the database failed while committing", true, failure);
            }
            if (failure instanceof DataAccessException || failure instanceof TransactionException) {
                return new JournalUnavailableException("the database is unavailable", false, failure);
            }
            return failure;
        }

        /** True when the failure struck while committing: the events may be durable after all. */
        public boolean maybeRecorded() {
            return maybeRecorded;
        }
    }
}
