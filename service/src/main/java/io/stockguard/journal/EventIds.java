package io.stockguard.journal;

import java.security.SecureRandom;
import java.util.UUID;

/**
 * Time-ordered event ids (UUID version 7, RFC 9562): unique without coordination between
 * instances, and ordered by creation so the journal's unique index is appended to, not scattered.
 */
public final class EventIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private EventIds() {
    }

    public static String next() {
        long millis = System.currentTimeMillis();
        long randomHigh = RANDOM.nextLong();
        long randomLow = RANDOM.nextLong();
        long most = (millis << 16) | 0x7000L | (randomHigh & 0x0fffL);
        long least = (randomLow & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(most, least).toString();
    }
}
