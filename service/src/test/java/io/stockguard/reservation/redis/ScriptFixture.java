package io.stockguard.reservation.redis;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.stockguard.journal.EventIds;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real Redis and the gateway to it, for tests that call the Lua scripts directly and then read
 * the keys behind them.
 */
final class ScriptFixture implements AutoCloseable {

    private static final AtomicInteger NEXT = new AtomicInteger();

    final RedisServer server;
    final RedisGateway redis;

    ScriptFixture() {
        server = RedisServer.start();
        redis = new RedisGateway(properties(server.uri()), CircuitBreaker.ofDefaults("test"));
    }

    static RedisProperties properties(String url) {
        return new RedisProperties(url, false, Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofDays(8),
                100_000, Duration.ofSeconds(30), 0, Duration.ofMillis(100),
                new RedisProperties.Breaker(50, 20, Duration.ofSeconds(3)),
                new RedisProperties.Outbox(Duration.ofSeconds(1), Duration.ofSeconds(10), 500),
                new RedisProperties.Preheat(200, Duration.ofMillis(50), Duration.ofSeconds(5)),
                new RedisProperties.Takeover(Duration.ofSeconds(4), Duration.ofSeconds(2)));
    }

    static SkuId sku() {
        return SkuId.of("S" + NEXT.incrementAndGet());
    }

    static OrderId order() {
        return OrderId.of("O" + NEXT.incrementAndGet());
    }

    /** Loads a SKU with the given available stock per bucket, epoch 1, mode NORMAL. */
    Reply load(SkuId sku, long... available) {
        List<String> arguments = new ArrayList<>(List.of("REBASE", Integer.toString(available.length), "1", "NORMAL"));
        for (long a : available) {
            arguments.addAll(List.of(Long.toString(a), "0", "0", "0"));
        }
        return run(Script.LOAD, List.of(Keys.meta(sku), Keys.buckets(sku), Keys.outbox(sku)), arguments);
    }

    Reply reserve(SkuId sku, OrderId order, int qty, int home, boolean commit) {
        List<String> arguments = new ArrayList<>(List.of(order.value(), Integer.toString(qty),
                Integer.toString(home), commit ? "1" : "0", "1000", commit ? "0" : "901000", "fp-" + order, "",
                "test", "3600", "100000"));
        for (int i = 0; i < 40; i++) {
            arguments.add(EventIds.next());
        }
        return run(Script.RESERVE, Keys.reserveKeys(sku, order), arguments);
    }

    Reply release(SkuId sku, OrderId order, String how, String... entries) {
        List<String> arguments = new ArrayList<>(List.of(order.value(), how, "2000", "", "test", "3600",
                EventIds.next()));
        arguments.addAll(List.of(entries));
        return run(Script.RELEASE, Keys.reserveKeys(sku, order), arguments);
    }

    Reply confirm(SkuId sku, OrderId order) {
        return run(Script.CONFIRM, Keys.reserveKeys(sku, order), List.of(order.value(), "1500", "", "test", "3600",
                EventIds.next()));
    }

    Reply run(Script script, List<String> keys, List<String> arguments) {
        return new Reply(redis.run(script, keys, arguments));
    }

    /** One field of a bucket: a available, r reserved, s sold, j journaled sum, q sequence. */
    long field(SkuId sku, int bucket, char field) {
        String value = server.command("HGET", Keys.buckets(sku), bucket + ":" + field);
        return value.equals("$-1") ? 0 : Long.parseLong(value);
    }

    long total(SkuId sku, char field, int buckets) {
        long total = 0;
        for (int b = 0; b < buckets; b++) {
            total += field(sku, b, field);
        }
        return total;
    }

    long outboxLength(SkuId sku) {
        return Long.parseLong(server.command("XLEN", Keys.outbox(sku)).substring(1));
    }

    /** The outbox entries' fields, oldest first. */
    List<Map<String, String>> outbox(SkuId sku) {
        List<Map<String, String>> entries = new ArrayList<>();
        redis.outbox(Keys.outbox(sku), 1_000).forEach(message -> entries.add(new HashMap<>(message.getBody())));
        return entries;
    }

    String line(SkuId sku, OrderId order) {
        return server.command("GET", Keys.line(sku, order));
    }

    @Override
    public void close() {
        redis.close();
        server.close();
    }
}
