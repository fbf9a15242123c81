package io.stockguard.journal;

import java.net.ConnectException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Tells why applying a batch failed, which decides how often it is tried again:
 * <ul>
 * <li>{@link Kind#UNAVAILABLE}: the database cannot be reached or did not answer. Nothing is wrong
 *     with the events: they are tried again, however long it takes, and never set aside.</li>
 * <li>{@link Kind#CONFLICT}: the database answered, and refused because another writer of the
 *     same rows got there first (a duplicate key, a deadlock, a serialization failure). Another
 *     attempt usually wins; one that keeps losing is not a race but an event that cannot be applied,
 *     so these are bounded too, a little more loosely than errors.</li>
 * <li>{@link Kind#ERROR}: anything else: a few attempts, then a dead letter.</li>
 * </ul>
 * Only an unavailable database holds a partition for as long as it lasts: a batch that fails the
 * same way again and again is set aside (with an alert) and the partition, and every hand-over
 * waiting on it, moves on.
 */
public final class Failures {

    /** How an attempt failed. */
    public enum Kind { UNAVAILABLE, CONFLICT, ERROR }

    /** Conflicts allowed for each error allowed before a batch is set aside (a race rarely repeats twice). */
    public static final int CONFLICTS_PER_ERROR = 3;

    private Failures() {
    }

    public static Kind kind(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof DataAccessResourceFailureException || t instanceof CannotCreateTransactionException
                    || t instanceof TransactionSystemException || t instanceof QueryTimeoutException
                    || t instanceof org.springframework.dao.TransientDataAccessResourceException
                    || t instanceof SQLTransientConnectionException || t instanceof SQLRecoverableException
                    || t instanceof ConnectException) {
                return Kind.UNAVAILABLE;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof org.springframework.dao.DuplicateKeyException
                    || t instanceof org.springframework.dao.TransientDataAccessException
                    || t instanceof org.springframework.dao.ConcurrencyFailureException
                    || t instanceof java.sql.SQLTransientException) {
                return Kind.CONFLICT;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return Kind.ERROR;
    }

    /** The failure in one line: its type and message, and those of its root cause. */
    public static String summary(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String own = failure.getClass().getSimpleName() + ": " + failure.getMessage();
        return root == failure ? own : own + " (caused by " + root.getClass().getSimpleName() + ": "
                + root.getMessage() + ")";
    }
}
