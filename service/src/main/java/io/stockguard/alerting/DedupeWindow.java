package io.stockguard.alerting;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Remembers the first alert of each dedupe key for a window, so that a condition the probe sees
 * every 10 seconds reaches people once, not every 10 seconds. Kept in memory per instance (a second
 * instance may send the same alert once more) and bounded: beyond {@code keysMax} keys the oldest
 * is forgotten, which at worst sends a repeat.
 */
final class DedupeWindow {

    private record First(String alertId, Instant at) {
    }

    private final Duration window;
    private final int keysMax;
    /** In the order the keys were first seen, which is time order: expiry looks only at the head. */
    private final LinkedHashMap<String, First> firsts = new LinkedHashMap<>();

    DedupeWindow(Duration window, int keysMax) {
        if (window.isNegative() || keysMax < 1) {
            throw new IllegalArgumentException("a dedupe window is not negative and holds at least one key");
        }
        this.window = window;
        this.keysMax = keysMax;
    }

    /**
     * The id of the first alert with this key while the window since it is open; otherwise empty,
     * and {@code alertId} becomes the first from {@code now}.
     */
    synchronized Optional<String> firstOf(String key, String alertId, Instant now) {
        forgetExpired(now);
        First first = firsts.get(key);
        if (first != null) {
            return Optional.of(first.alertId());
        }
        firsts.put(key, new First(alertId, now));
        if (firsts.size() > keysMax) {
            Iterator<String> oldest = firsts.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
        return Optional.empty();
    }

    private void forgetExpired(Instant now) {
        Iterator<Map.Entry<String, First>> entries = firsts.entrySet().iterator();
        while (entries.hasNext()) {
            if (entries.next().getValue().at().plus(window).isAfter(now)) {
                return;
            }
            entries.remove();
        }
    }

    synchronized int size() {
        return firsts.size();
    }
}
