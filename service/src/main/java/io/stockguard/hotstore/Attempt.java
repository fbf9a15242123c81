package io.stockguard.hotstore;

/**
 * One attempt at an order's half-way record: a request opening or resuming it, or the outbox sweeper
 * claiming it. order.lua names the attempt that holds an OPENING record, and an attempt that ends
 * the opening (close, abort, give up) must still hold it: the hand-over from a request that went
 * quiet to the one that takes it over is a claim the first one checks, never the clock alone.
 *
 * @param id unique among the attempts at one order: a request's names its instance
 *     ({@link InstancePresence#nextAttempt()}), "instance.random"; the outbox sweeper's is random alone
 */
record Attempt(String id) {

    /** An attempt that names no instance (the outbox sweeper's claim: only quiet hands it over). */
    static Attempt anonymous() {
        return new Attempt(java.util.HexFormat.of().toHexDigits(java.util.concurrent.ThreadLocalRandom.current()
                .nextLong()));
    }
}
