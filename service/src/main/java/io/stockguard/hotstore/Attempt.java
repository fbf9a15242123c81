package io.stockguard.hotstore;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One attempt at an order's half-way record: a request opening or resuming it, or the outbox sweeper
 * claiming it. order.lua names the attempt that holds an OPENING record, and an attempt that ends
 * the opening (close, abort, give up) must still hold it: the hand-over from a request that went
 * quiet to the one that takes it over is a claim the first one checks, never the clock alone.
 *
 * @param id random, 64 bits: unique among the attempts at one order
 */
record Attempt(String id) {

    static Attempt next() {
        return new Attempt(HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()));
    }
}
