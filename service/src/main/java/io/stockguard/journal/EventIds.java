package io.stockguard.journal;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Time-ordered event ids (UUID version 7, RFC 9562): unique without coordination between
 * instances, and ordered by creation so the journal's unique index is appended to, not scattered.
 * The 74 random bits come from {@link ThreadLocalRandom}: ids must not collide, but they are not
 * secrets, and a shared {@code SecureRandom} is a lock every reservation would queue on.
 */
public final class EventIds {

    private EventIds() {
    }

    public static String next() {
        long millis = System.currentTimeMillis();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long randomHigh = random.nextLong();
        long randomLow = random.nextLong();
        long most = (millis << 16) | 0x7000L | (randomHigh & 0x0fffL);
        long least = (randomLow & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(most, least).toString();
    }
}
