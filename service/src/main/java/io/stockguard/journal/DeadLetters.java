package io.stockguard.journal;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Where dead letters are kept (the {@code dead_letter} table). */
public interface DeadLetters {

    /** Keeps a dead letter; keeping the same source again changes nothing. */
    void keep(String source, String eventId, String skuId, String payload, String error, int attempts,
            Instant failedAt);

    /** The most recent first, at most {@code limit}; only open ones when {@code openOnly}. */
    List<DeadLetter> list(boolean openOnly, int limit);

    Optional<DeadLetter> find(long id);

    long countOpen();

    /** Marks it replayed; false when it already was (a concurrent replay won). */
    boolean markReplayed(long id, String by, Instant at);
}
