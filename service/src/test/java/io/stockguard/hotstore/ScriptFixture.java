package io.stockguard.hotstore;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.stockguard.journal.EventIds;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Redis and the gateway to it, for tests that call the Lua scripts directly and then read
 * the keys behind them. Every call names the epoch its caller may change the SKU at; the short
 * forms use {@link #EPOCH}, the epoch {@link #load(SkuId, long...)} loads at. A test class keeps
 * one in a static {@code @RegisterExtension} field: the server starts when the class does and
 * stops after its last test.
 */
final class ScriptFixture implements AutoCloseable, AfterAllCallback {

    /** The epoch the short forms load at and sell at. */
    static final long EPOCH = 1;

    private static final AtomicInteger NEXT = new AtomicInteger();

    final RedisServer server;
    final RedisGateway redis;
    /** Whether {@link #close()} stops the server too (it started it). */
    private final boolean ownsServer;

    ScriptFixture() {
        this(RedisServer.start(), true);
    }

    /** A gateway to a server the test started (and stops) itself. */
    ScriptFixture(RedisServer server) {
        this(server, false);
    }

    private ScriptFixture(RedisServer server, boolean ownsServer) {
        this.server = server;
        this.ownsServer = ownsServer;
        redis = new RedisGateway(properties(server.uri()), CircuitBreaker.ofDefaults("test"));
    }

    static RedisProperties properties(String url) {
        return properties(url, new RedisProperties.Tls(null, null, null));
    }

    static RedisProperties properties(String url, RedisProperties.Tls tls) {
        return properties(url, 0, tls);
    }

    /** With {@code stockguard.redis.wait-replicas} set to {@code waitReplicas}. */
    static RedisProperties properties(String url, int waitReplicas) {
        return properties(url, waitReplicas, new RedisProperties.Tls(null, null, null));
    }

    private static RedisProperties properties(String url, int waitReplicas, RedisProperties.Tls tls) {
        return new RedisProperties(url, false, Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofDays(8),
                100_000, Duration.ofSeconds(30), waitReplicas, Duration.ofMillis(100),
                new RedisProperties.Breaker(50, 20, Duration.ofSeconds(3)),
                new RedisProperties.Outbox(Duration.ofSeconds(1), Duration.ofSeconds(10), 500),
                new RedisProperties.Preheat(200, Duration.ofMillis(50), Duration.ofSeconds(5)),
                new RedisProperties.Takeover(Duration.ofSeconds(4), Duration.ofSeconds(2), Duration.ofSeconds(2)),
                null, null, null, tls);
    }

    static SkuId sku() {
        return SkuId.of("S" + NEXT.incrementAndGet());
    }

    static OrderId order() {
        return OrderId.of("O" + NEXT.incrementAndGet());
    }

    /** Loads a SKU with the given available stock per bucket, epoch {@link #EPOCH}, mode NORMAL. */
    Reply load(SkuId sku, long... available) {
        return loadAt(sku, EPOCH, available);
    }

    /** Loads a SKU with the given available stock per bucket under {@code epoch}, mode NORMAL. */
    Reply loadAt(SkuId sku, long epoch, long... available) {
        long[][] buckets = new long[available.length][];
        for (int b = 0; b < available.length; b++) {
            buckets[b] = new long[] {available[b], 0, 0, 0};
        }
        return load(sku, epoch, "NORMAL", 0, buckets);
    }

    /**
     * load.lua with everything given: each bucket as {available, reserved, sold, applied sum}, and
     * the rate while THROTTLED.
     */
    Reply load(SkuId sku, long epoch, String mode, long rate, long[]... buckets) {
        return loadWith(sku, epoch, mode, rate, 0, 0, buckets);
    }

    /**
     * load.lua with the time it is loaded at and, after a loss, how long reservations of orders it
     * does not know ask the database first (both epoch ms).
     */
    Reply loadWith(SkuId sku, long epoch, String mode, long rate, long nowMillis, long replayCheckMillis,
            long[]... buckets) {
        List<String> arguments = new ArrayList<>(List.of(Integer.toString(buckets.length), Long.toString(epoch),
                mode));
        for (long[] bucket : buckets) {
            Arrays.stream(bucket).forEach(value -> arguments.add(Long.toString(value)));
        }
        arguments.add(Long.toString(rate));
        arguments.add("0");
        arguments.add("0");
        arguments.add(Long.toString(nowMillis));
        arguments.add(Long.toString(replayCheckMillis));
        return run(Script.LOAD, List.of(Keys.meta(sku), Keys.buckets(sku), Keys.outbox(sku), Keys.customers(sku),
                Keys.gives(sku)),
                arguments);
    }

    Reply reserve(SkuId sku, OrderId order, int qty, int home, boolean commit) {
        return reserve(sku, order, qty, home, commit, EPOCH);
    }

    /** A reservation by a caller that may sell at {@code epoch}. */
    Reply reserve(SkuId sku, OrderId order, int qty, int home, boolean commit, long epoch) {
        return reserve(sku, order, qty, home, commit, 1000, epoch, 100_000);
    }

    /** A hold at a given time (epoch milliseconds), for the throttle's token bucket. */
    Reply reserveAt(SkuId sku, OrderId order, int qty, long nowMillis) {
        return reserveAt(sku, order, qty, nowMillis, EPOCH);
    }

    Reply reserveAt(SkuId sku, OrderId order, int qty, long nowMillis, long epoch) {
        return reserve(sku, order, qty, 0, false, nowMillis, epoch, 100_000);
    }

    /** reserve.lua with the time, the caller's epoch and the outbox length above which it refuses. */
    Reply reserve(SkuId sku, OrderId order, int qty, int home, boolean commit, long nowMillis, long epoch,
            long outboxMax) {
        return reserve(sku, order, qty, home, commit, nowMillis, epoch, outboxMax, "");
    }

    /** A hold of {@code customer}'s order (a per-customer limit counts it). */
    Reply reserveFor(SkuId sku, OrderId order, int qty, String customer) {
        return reserve(sku, order, qty, 0, false, 1000, EPOCH, 100_000, customer);
    }

    private Reply reserve(SkuId sku, OrderId order, int qty, int home, boolean commit, long nowMillis, long epoch,
            long outboxMax, String customer) {
        List<String> arguments = new ArrayList<>(List.of(order.value(), Integer.toString(qty),
                Integer.toString(home), commit ? "1" : "0", Long.toString(nowMillis),
                commit ? "0" : Long.toString(nowMillis + 900_000), "fp-" + order, "", "test", "3600",
                Long.toString(outboxMax), Long.toString(epoch), customer, ""));
        for (int i = 0; i < 40; i++) {
            arguments.add(EventIds.next());
        }
        return run(Script.RESERVE, Keys.reserveKeys(sku, order), arguments);
    }

    Reply release(SkuId sku, OrderId order, String how, String... entries) {
        return releaseAt(sku, order, how, EPOCH, entries);
    }

    /** release.lua by a caller that may change the SKU at {@code epoch}. */
    Reply releaseAt(SkuId sku, OrderId order, String how, long epoch, String... entries) {
        List<String> arguments = new ArrayList<>(List.of(order.value(), how, "2000", "", "test", "3600",
                EventIds.next(), Long.toString(epoch)));
        arguments.addAll(List.of(entries));
        return run(Script.RELEASE, Keys.reserveKeys(sku, order), arguments);
    }

    Reply confirm(SkuId sku, OrderId order) {
        return confirm(sku, order, EPOCH);
    }

    /** confirm.lua by a caller that may change the SKU at {@code epoch}. */
    Reply confirm(SkuId sku, OrderId order, long epoch) {
        return run(Script.CONFIRM, Keys.reserveKeys(sku, order), List.of(order.value(), "1500", "", "test", "3600",
                EventIds.next(), Long.toString(epoch)));
    }

    Reply setMode(SkuId sku, String mode, long rate) {
        return setMode(sku, mode, rate, EPOCH);
    }

    /** set_mode.lua by a caller that knows {@code epoch} owns the SKU. */
    Reply setMode(SkuId sku, String mode, long rate, long epoch) {
        return run(Script.SET_MODE, List.of(Keys.meta(sku)), List.of(mode, Long.toString(rate), Long.toString(epoch)));
    }

    /**
     * stock.lua: {@code op} RESTOCK or ADJUST, {@code how} DELTA or SET, under a request id ('' for
     * none) with a fingerprint, by a caller that may change the SKU at {@code epoch}.
     */
    Reply stock(SkuId sku, String op, String how, long amount, String requestId, String fingerprint, long epoch,
            long outboxMax) {
        List<String> arguments = new ArrayList<>(List.of(op, how, Long.toString(amount), requestId, fingerprint,
                Long.toString(epoch), "3000", "", "test", "3600", Long.toString(outboxMax)));
        for (int i = 0; i < 16; i++) {
            arguments.add(EventIds.next());
        }
        return run(Script.STOCK, List.of(Keys.meta(sku), Keys.buckets(sku), Keys.outbox(sku), request(sku, requestId),
                Keys.gives(sku)),
                arguments);
    }

    /** The key of a stock request's record, as the service names it. */
    static String request(SkuId sku, String requestId) {
        return "sg:{" + sku.value() + "}:rq:" + requestId;
    }

    /** restore_line.lua: writes {@code record} ('' removes) unless a record of the current epoch is there. */
    Reply restoreLine(SkuId sku, OrderId order, long epoch, String record) {
        return run(Script.RESTORE_LINE, List.of(Keys.meta(sku), Keys.line(sku, order)),
                List.of(Long.toString(epoch), record, "3600"));
    }

    Reply snapshot(SkuId sku) {
        return run(Script.SNAPSHOT, List.of(Keys.meta(sku), Keys.buckets(sku), Keys.outbox(sku)), List.of());
    }

    Reply run(Script script, List<String> keys, List<String> arguments) {
        return new Reply(redis.run(script, keys, arguments));
    }

    /** One field of a bucket: a available, r reserved, s sold, j journaled sum, q sequence. */
    long field(SkuId sku, int bucket, char field) {
        String value = server.command("HGET", Keys.buckets(sku), bucket + ":" + field);
        return value.equals("$-1") ? 0 : Long.parseLong(value);
    }

    /** A field of a bucket exactly as Redis holds it (null when absent): to see how a number was written. */
    String rawField(SkuId sku, int bucket, char field) {
        String value = server.command("HGET", Keys.buckets(sku), bucket + ":" + field);
        return value.equals("$-1") ? null : value;
    }

    long total(SkuId sku, char field, int buckets) {
        long total = 0;
        for (int b = 0; b < buckets; b++) {
            total += field(sku, b, field);
        }
        return total;
    }

    /** Every bucket's field, in bucket order. */
    long[] fields(SkuId sku, char field, int buckets) {
        long[] values = new long[buckets];
        for (int b = 0; b < buckets; b++) {
            values[b] = field(sku, b, field);
        }
        return values;
    }

    long outboxLength(SkuId sku) {
        return Long.parseLong(server.command("XLEN", Keys.outbox(sku)).substring(1));
    }

    /** The outbox's entries as the sweeper reads them (the SKU must be loaded here). */
    private List<io.lettuce.core.StreamMessage<String, String>> outboxEntries(SkuId sku) {
        Reply reply = run(Script.OUTBOX, List.of(Keys.meta(sku), Keys.outbox(sku)), List.of("1000"));
        if (!reply.is("OK")) {
            throw new IllegalStateException("the outbox of " + sku + " cannot be read: " + reply.values());
        }
        return OutboxSweeper.entries(Keys.outbox(sku), reply);
    }

    /** The outbox entries' fields, oldest first. */
    List<Map<String, String>> outbox(SkuId sku) {
        List<Map<String, String>> entries = new ArrayList<>();
        outboxEntries(sku).forEach(message -> entries.add(new HashMap<>(message.getBody())));
        return entries;
    }

    /** The outbox entries' ids, oldest first. */
    List<String> outboxIds(SkuId sku) {
        return outboxEntries(sku).stream().map(message -> message.getId()).toList();
    }

    /** The ids of the outbox entries whose field {@code field} is {@code value}, oldest first. */
    List<String> outboxIds(SkuId sku, String field, String value) {
        return outboxEntries(sku).stream()
                .filter(message -> value.equals(message.getBody().get(field))).map(message -> message.getId())
                .toList();
    }

    /** set_limit.lua at the fixture's epoch: units one customer may hold of the SKU (0: none). */
    Reply limit(SkuId sku, int units) {
        return run(Script.SET_LIMIT, List.of(Keys.meta(sku)), List.of(Integer.toString(units), Long.toString(EPOCH)));
    }

    /** What the hot store counts for the customer (0 when it has no field). */
    long held(SkuId sku, String customer) {
        String value = server.command("HGET", Keys.customers(sku), customer);
        return value.equals("$-1") ? 0 : Long.parseLong(value);
    }

    String line(SkuId sku, OrderId order) {
        return server.command("GET", Keys.line(sku, order));
    }

    /** Writes a line record as it is, for records another epoch or an older version left. */
    void putLine(SkuId sku, OrderId order, String record) {
        server.command("SET", Keys.line(sku, order), record);
    }

    String meta(SkuId sku, String field) {
        String value = server.command("HGET", Keys.meta(sku), field);
        return value.equals("$-1") ? null : value;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        // A @Nested class inherits the extension and ends before its outer class: only the outer one stops it.
        if (!context.getRequiredTestClass().isAnnotationPresent(org.junit.jupiter.api.Nested.class)) {
            close();
        }
    }

    @Override
    public void close() {
        redis.close();
        if (ownsServer) {
            server.close();
        }
    }
}
