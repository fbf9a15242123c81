package io.stockguard.journal;

import java.time.Instant;

/**
 * An event the database writer could not apply after its attempts, kept as it arrived.
 *
 * @param source where it came from ({@code topic-partition@offset}); unique
 * @param eventId its event id, when the record could be read as an event
 * @param payload the record as it arrived (text)
 * @param replayedAt when a person replayed it (null while open)
 */
public record DeadLetter(long id, String source, String eventId, String skuId, String payload, String error,
        int attempts, Instant failedAt, Instant replayedAt, String replayedBy) {

    public boolean open() {
        return replayedAt == null;
    }
}
