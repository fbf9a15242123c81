package io.stockguard.testing;

import java.util.concurrent.atomic.AtomicLong;

/** Unique SKU and order ids per test, so tests can share one running service. */
public final class Ids {

    private static final AtomicLong NEXT = new AtomicLong(System.nanoTime() % 1_000_000);

    private Ids() {
    }

    public static String sku(String prefix) {
        return prefix + "-" + NEXT.incrementAndGet();
    }

    public static String order(String prefix) {
        return prefix + "-" + NEXT.incrementAndGet();
    }
}
