package io.stockguard.testing;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * What tests that stop Redis under a running service share: settings with which the service
 * notices the outage within about a second, and a wait through the 503s it answers while a SKU
 * changes hands.
 */
public final class RedisOutage {

    /** A short command timeout and a small breaker window that stays open a second. */
    public static final Map<String, String> QUICK_BREAKER = Map.of(
            "stockguard.redis.command-timeout", "300ms",
            "stockguard.redis.breaker.sliding-window-size", "10",
            "stockguard.redis.breaker.open-for", "1s");

    private RedisOutage() {
    }

    /** The first answer other than 503, asking every 200 ms for at most 30 s. */
    public static StockGuardClient.Response awaitAnswer(Callable<StockGuardClient.Response> ask) {
        StockGuardClient.Response[] answer = new StockGuardClient.Response[1];
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            answer[0] = ask.call();
            return answer[0].status() != 503;
        });
        return answer[0];
    }
}
