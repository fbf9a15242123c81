package io.stockguard.journal.kafka;

import java.net.ConnectException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Tells a database that is unavailable (wait and try the same events again, however long it
 * takes) from an event that cannot be applied (a few attempts, then a dead letter).
 */
final class Failures {

    private Failures() {
    }

    static boolean isTransient(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof TransientDataAccessException || t instanceof DataAccessResourceFailureException
                    || t instanceof CannotCreateTransactionException || t instanceof TransactionSystemException
                    || t instanceof SQLTransientException || t instanceof SQLRecoverableException
                    || t instanceof ConnectException
                    // A race with another writer of the same rows that outlasted the applier's own retries.
                    || t instanceof DuplicateKeyException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** The failure in one line: its type and message, and those of its root cause. */
    static String summary(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String own = failure.getClass().getSimpleName() + ": " + failure.getMessage();
        return root == failure ? own : own + " (caused by " + root.getClass().getSimpleName() + ": "
                + root.getMessage() + ")";
    }
}
