package io.stockguard.alerting;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * At most {@code max} alerts per channel, SKU and level in a sliding window: a SKU whose drift
 * flaps between levels must not page someone sixty times an hour. Alerts without a SKU share one
 * allowance per level. Bounded: beyond {@code keysMax} the least recently used key is forgotten.
 */
final class ChannelRateLimit {

    private final int max;
    private final Duration window;
    private final Map<String, ArrayDeque<Instant>> sent;

    ChannelRateLimit(int max, Duration window, int keysMax) {
        if (max < 1 || !window.isPositive() || keysMax < 1) {
            throw new IllegalArgumentException("a rate limit allows at least one alert in a positive window");
        }
        this.max = max;
        this.window = window;
        this.sent = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, ArrayDeque<Instant>> eldest) {
                return size() > keysMax;
            }
        };
    }

    /** True, and counted, when the channel may send one more alert for this SKU and level now. */
    synchronized boolean admit(String channel, String skuId, AlertLevel level, Instant now) {
        ArrayDeque<Instant> times = sent.computeIfAbsent(channel + "|" + (skuId == null ? "-" : skuId) + "|" + level,
                key -> new ArrayDeque<>());
        Instant windowStart = now.minus(window);
        while (!times.isEmpty() && !times.peekFirst().isAfter(windowStart)) {
            times.pollFirst();
        }
        if (times.size() >= max) {
            return false;
        }
        times.addLast(now);
        return true;
    }

    int max() {
        return max;
    }

    Duration window() {
        return window;
    }
}
