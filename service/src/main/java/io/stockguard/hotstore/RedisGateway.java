package io.stockguard.hotstore;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.stockguard.stock.SkuId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The one door to Redis: standalone, Sentinel or Cluster behind the same calls, every call
 * bounded by a timeout and counted by the circuit breaker. Scripts are called by SHA-1; a node
 * that does not know a script (a restart, a failover) is sent the body once. Each script call of
 * the hot path is observed as {@code stockguard.redis.script}: a span of the request's trace when
 * tracing is on (docs/operations.md, "Tracing"), and a timer by script.
 */
final class RedisGateway implements AutoCloseable {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RedisGateway.class);
    static final String SCRIPT_OBSERVATION = "stockguard.redis.script";
    /** SKUs remembered as registered; beyond this the memory starts over (each SKU is registered again once). */
    private static final int REGISTERED_MAX = 2_000_000;

    /** Redis could not be used: down, too slow, or the breaker is open. Nothing is known to be applied. */
    static final class HotStoreUnavailable extends RuntimeException {
        HotStoreUnavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final AbstractRedisClient client;
    /** Connects on first use: the service starts, and serves from the database, while Redis is down. */
    private final Supplier<StatefulConnection<String, String>> connector;
    private volatile StatefulConnection<String, String> connection;
    private volatile RedisClusterAsyncCommands<String, String> commands;
    /** Replica waits only (standalone and Sentinel): a WAIT blocks its connection until it returns. */
    private volatile StatefulRedisConnection<String, String> waitConnection;
    private final CircuitBreaker breaker;
    private final Duration timeout;
    /**
     * The outbox keys whose SKUs this instance has put in the register of loaded SKUs since it
     * started (see registerOnFirstUse): kept by key, so a script call that finds its SKU here makes
     * no object of its own.
     */
    private final java.util.Set<String> registered = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final boolean cluster;
    private final ObservationRegistry observations;

    RedisGateway(RedisProperties properties, CircuitBreaker breaker) {
        this(properties, breaker, ObservationRegistry.NOOP);
    }

    RedisGateway(RedisProperties properties, CircuitBreaker breaker, ObservationRegistry observations) {
        this.breaker = breaker;
        this.observations = observations;
        this.timeout = properties.commandTimeout();
        this.cluster = properties.cluster();
        this.client = RedisConnections.client(properties);
        this.connector = client instanceof RedisClusterClient clusterClient ? clusterClient::connect
                : ((RedisClient) client)::connect;
    }

    /**
     * The connection's commands, connecting first if no connection was made yet. Once made, the
     * client reconnects by itself after a failure; until then every call tries again.
     */
    private RedisClusterAsyncCommands<String, String> commands() {
        RedisClusterAsyncCommands<String, String> current = commands;
        if (current != null) {
            return current;
        }
        synchronized (this) {
            if (commands == null) {
                StatefulConnection<String, String> made = connector.get();
                connection = made;
                commands = made instanceof StatefulRedisClusterConnection<String, String> clusterConnection
                        ? clusterConnection.async() : ((StatefulRedisConnection<String, String>) made).async();
            }
            return commands;
        }
    }

    /** Redis is worth trying: the breaker is closed, or half-open and probing. */
    boolean usable() {
        return breaker.getState() != CircuitBreaker.State.OPEN && breaker.getState() != CircuitBreaker.State.FORCED_OPEN;
    }

    /**
     * Whether a request should be sent to Redis now: the breaker lets it, and there is an open
     * connection (one is made now if none was yet). A request routed elsewhere on this answer left
     * nothing behind in Redis, so it may be served by the database at once; a Redis that fails
     * after this answer leaves an outcome unknown instead.
     */
    boolean reachable() {
        if (!usable()) {
            return false;
        }
        StatefulConnection<String, String> made = connection;
        if (made != null) {
            return made.isOpen();
        }
        try {
            call(this::commands);
            return true;
        } catch (HotStoreUnavailable e) {
            return false;
        }
    }

    boolean isCluster() {
        return cluster;
    }

    CircuitBreaker breaker() {
        return breaker;
    }

    /**
     * Runs a script and returns its reply (a list of Long and String values). Observed without
     * putting the observation in scope: nothing called inside is observed, and a scope would cost
     * every call a change of the thread's context and log context.
     */
    List<Object> run(Script script, List<String> keys, List<String> arguments) {
        Observation observation = Observation.createNotStarted(SCRIPT_OBSERVATION, observations)
                .lowCardinalityKeyValue("script", script.tag()).start();
        try {
            return call(() -> await(runAsync(script, keys, arguments)));
        } catch (RuntimeException e) {
            observation.error(e);
            throw e;
        } finally {
            observation.stop();
        }
    }

    /** Sends a script without waiting; for pipelined bulk work such as preheat. Not counted by the breaker. */
    CompletableFuture<List<Object>> runAsync(Script script, List<String> keys, List<String> arguments) {
        String[] keyArray = keys.toArray(String[]::new);
        String[] argumentArray = arguments.toArray(String[]::new);
        RedisClusterAsyncCommands<String, String> commands;
        try {
            commands = commands();
        } catch (RedisException e) {
            return CompletableFuture.failedFuture(e);
        }
        registerOnFirstUse(keys);
        CompletableFuture<List<Object>> bySha = commands.<List<Object>>evalsha(script.sha(), ScriptOutputType.MULTI,
                keyArray, argumentArray).toCompletableFuture();
        return bySha.exceptionallyCompose(failure -> unwrap(failure) instanceof RedisNoScriptException
                ? commands.<List<Object>>eval(script.body(), ScriptOutputType.MULTI, keyArray, argumentArray)
                        .toCompletableFuture()
                : CompletableFuture.failedFuture(unwrap(failure)));
    }

    /**
     * Puts the SKU of an outbox the script names in the register of loaded SKUs ({@link Keys#LOADED}),
     * once per SKU while this instance runs, sent ahead of the script (on the same connection, but
     * for a Cluster, where the register lives on a node of its own). A load registers its SKU
     * itself; this covers copies loaded by a version of the service that kept no register, whose
     * outboxes the sweeper would otherwise find only by its slow walk over every key. A registration
     * that fails is tried again with the SKU's next script.
     */
    private void registerOnFirstUse(List<String> keys) {
        for (String key : keys) {
            if (registered.contains(key)) {
                continue;
            }
            SkuId sku = Keys.skuOfOutbox(key);
            if (sku == null) {
                continue;
            }
            if (registered.size() >= REGISTERED_MAX) {
                registered.clear();
            }
            registered.add(key);
            registerLoaded(sku).whenComplete((added, failure) -> {
                if (failure != null) {
                    registered.remove(key);
                }
            });
        }
    }

    /** The outbox entries with these ids that are still there, pipelined. */
    List<StreamMessage<String, String>> outboxEntries(String key, List<String> entryIds) {
        return call(() -> {
            List<CompletableFuture<List<StreamMessage<String, String>>>> sent = new ArrayList<>();
            entryIds.forEach(id -> sent.add(commands().xrange(key, Range.create(id, id)).toCompletableFuture()));
            await(CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)));
            List<StreamMessage<String, String>> found = new ArrayList<>();
            sent.forEach(f -> found.addAll(f.join()));
            return found;
        });
    }

    /**
     * Deletes journaled entries from an outbox without waiting for the answer: the request's next
     * command follows on the same connection, and Redis runs them in the order sent, so the delete
     * costs no round trip of its own. Best effort: an entry left behind (Redis failed, the breaker
     * is open) is found already applied by the outbox sweeper.
     */
    void forgetJournaled(String key, List<String> entryIds) {
        if (entryIds.isEmpty() || !usable()) {
            return;
        }
        try {
            commands().srem(Keys.givesOfOutbox(key), entryIds.toArray(String[]::new));
            commands().xdel(key, entryIds.toArray(String[]::new)).whenComplete((deleted, failure) -> {
                if (failure != null) {
                    log.debug("outbox entries of {} stay; the sweeper finds them applied: {}", key, failure.toString());
                }
            });
        } catch (RedisException e) {
            log.debug("outbox entries of {} stay; the sweeper finds them applied: {}", key, e.toString());
        }
    }

    long deleteFromOutbox(String key, List<String> entryIds) {
        if (entryIds.isEmpty()) {
            return 0;
        }
        return call(() -> {
            String[] ids = entryIds.toArray(String[]::new);
            commands().srem(Keys.givesOfOutbox(key), ids);
            return await(commands().xdel(key, ids).toCompletableFuture());
        });
    }

    /** Writes a value with a lifetime, replacing any. */
    void set(String key, String value, Duration lifetime) {
        call(() -> await(commands().setex(key, lifetime.toSeconds(), value).toCompletableFuture()));
    }

    /** Writes a value unless the key exists, with a lifetime; true when written. */
    boolean setIfAbsent(String key, String value, Duration lifetime) {
        return call(() -> "OK".equals(await(commands().set(key, value,
                io.lettuce.core.SetArgs.Builder.nx().ex(lifetime.toSeconds())).toCompletableFuture())));
    }

    /**
     * Writes each value unless its key exists, pipelined: sent together, then awaited together.
     * For bulk restores; the caller bounds the batch.
     */
    void setAllIfAbsent(java.util.Map<String, String> values, Duration lifetime) {
        call(() -> {
            io.lettuce.core.SetArgs onlyIfAbsent = io.lettuce.core.SetArgs.Builder.nx().ex(lifetime.toSeconds());
            List<CompletableFuture<String>> sent = new ArrayList<>(values.size());
            values.forEach((key, value) -> sent.add(commands().set(key, value, onlyIfAbsent).toCompletableFuture()));
            return await(CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)));
        });
    }

    /** Writes each value, replacing any, pipelined; for bulk restores, the caller bounds the batch. */
    void setAll(java.util.Map<String, String> values, Duration lifetime) {
        call(() -> {
            List<CompletableFuture<String>> sent = new ArrayList<>(values.size());
            values.forEach((key, value) -> sent.add(commands().setex(key, lifetime.toSeconds(), value)
                    .toCompletableFuture()));
            return await(CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)));
        });
    }

    void delete(String key) {
        call(() -> await(commands().del(key).toCompletableFuture()));
    }

    /** Which of the keys exist, pipelined; in the keys' order. */
    List<Boolean> exist(List<String> keys) {
        return call(() -> {
            List<CompletableFuture<Long>> sent = new ArrayList<>(keys.size());
            keys.forEach(key -> sent.add(commands().exists(key).toCompletableFuture()));
            await(CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)));
            return sent.stream().map(f -> f.join() > 0).toList();
        });
    }

    long outboxLength(String key) {
        return call(() -> await(commands().xlen(key).toCompletableFuture()));
    }

    /** How many entries each SKU's outbox holds (0: none, or no outbox), pipelined; in the SKUs' order. */
    List<Long> outboxLengths(List<SkuId> skus) {
        return call(() -> {
            List<CompletableFuture<Long>> sent = new ArrayList<>(skus.size());
            skus.forEach(sku -> sent.add(commands().xlen(Keys.outbox(sku)).toCompletableFuture()));
            await(CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)));
            return sent.stream().map(CompletableFuture::join).toList();
        });
    }

    /**
     * Puts the SKU in the register of SKUs loaded into this Redis ({@link Keys#LOADED}), which the
     * outbox sweeper reads instead of walking every key. Sent before the load it precedes, without
     * waiting: the caller chains the load on it.
     */
    CompletableFuture<Long> registerLoaded(SkuId sku) {
        try {
            return commands().sadd(Keys.LOADED, sku.value()).toCompletableFuture();
        } catch (RedisException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** {@link #registerLoaded}, waited for as every command is. */
    void registerLoadedNow(SkuId sku) {
        call(() -> await(registerLoaded(sku)));
    }

    /** SKUs of the register of loaded SKUs, about {@code count} per call; pass the returned cursor back to go on. */
    LoadedPage loadedSkus(ScanCursor cursor, int count) {
        return call(() -> {
            var page = await(commands().sscan(Keys.LOADED, cursor == null ? ScanCursor.INITIAL : cursor,
                    ScanArgs.Builder.limit(count)).toCompletableFuture());
            return new LoadedPage(page.getValues().stream().map(SkuId::of).toList(),
                    page.isFinished() ? null : page);
        });
    }

    record LoadedPage(List<SkuId> skus, ScanCursor next) {
    }

    /**
     * Outbox keys present, about {@code count} per call; pass the returned cursor back to go on.
     * The cursor object is kept as is: in a cluster it remembers which node the scan is on.
     */
    ScanPage scanOutboxes(ScanCursor cursor, int count) {
        return call(() -> {
            var page = await(commands().scan(cursor == null ? ScanCursor.INITIAL : cursor,
                    ScanArgs.Builder.matches("sg:{*}:x").limit(count)).toCompletableFuture());
            return new ScanPage(new ArrayList<>(page.getKeys()), page.isFinished() ? null : page);
        });
    }

    record ScanPage(List<String> keys, ScanCursor next) {
    }

    /**
     * How many replicas have every write Redis made before this call, waiting up to
     * {@code waitTimeout} for {@code replicas} of them. On a connection of its own, so the shared
     * one never stalls behind a WAIT: a write there (INCR of {@link Keys#REPLICATION_TICK}) comes
     * after everything the other connections' scripts wrote before it was sent, and WAIT waits for
     * the replicas to acknowledge that write, hence all of them. Standalone and Sentinel only: in a
     * cluster each slot's writes live on their own node.
     */
    long replicasAfterEarlierWrites(int replicas, Duration waitTimeout) {
        if (cluster) {
            throw new IllegalStateException("replica acknowledgement is not available in Redis Cluster");
        }
        return call(() -> {
            RedisAsyncCommands<String, String> own = waitCommands();
            CompletableFuture<Long> tick = own.incr(Keys.REPLICATION_TICK).toCompletableFuture();
            CompletableFuture<Long> reached = own.waitForReplication(replicas, waitTimeout.toMillis())
                    .toCompletableFuture();
            await(tick);
            return awaitFor(reached, waitTimeout.plus(timeout));
        });
    }

    /** One section of INFO from the server this instance's connection is on (standalone and Sentinel). */
    String info(String section) {
        return call(() -> await(commands().info(section).toCompletableFuture()));
    }

    /** The client, for what the shared connection does not serve (a Sentinel's own questions). */
    AbstractRedisClient client() {
        return client;
    }

    /** How many replicas Redis reports connected (INFO replication); standalone and Sentinel. */
    int connectedReplicas() {
        String info = info("replication");
        return info.lines().filter(line -> line.startsWith("connected_slaves:")).findFirst()
                .map(line -> Integer.parseInt(line.substring("connected_slaves:".length()).strip())).orElse(0);
    }

    /** The connection replica waits run on; made on first use, and again after it failed. */
    private RedisAsyncCommands<String, String> waitCommands() {
        StatefulRedisConnection<String, String> current = waitConnection;
        if (current != null && current.isOpen()) {
            return current.async();
        }
        synchronized (this) {
            if (waitConnection == null || !waitConnection.isOpen()) {
                if (waitConnection != null) {
                    waitConnection.closeAsync();
                }
                waitConnection = ((RedisClient) client).connect();
            }
            return waitConnection.async();
        }
    }

    private <T> T call(Supplier<T> work) {
        try {
            return breaker.executeSupplier(work);
        } catch (CallNotPermittedException e) {
            throw new HotStoreUnavailable("the Redis circuit breaker is open", e);
        } catch (RedisException e) {
            throw new HotStoreUnavailable("Redis failed: " + e.getMessage(), e);
        }
    }

    private <T> T await(CompletableFuture<T> future) {
        return awaitFor(future, timeout);
    }

    private <T> T awaitFor(CompletableFuture<T> future, Duration limit) {
        try {
            return future.get(limit.toMillis() + 50, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new io.lettuce.core.RedisCommandTimeoutException("no answer within " + limit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException("interrupted while waiting for Redis", e);
        } catch (ExecutionException e) {
            Throwable cause = unwrap(e);
            throw cause instanceof RedisException redis ? redis : new RedisException(cause.getMessage(), cause);
        }
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof ExecutionException || cause instanceof java.util.concurrent.CompletionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    @Override
    public void close() {
        StatefulConnection<String, String> current = connection;
        if (current != null) {
            current.close();
        }
        StatefulRedisConnection<String, String> waits = waitConnection;
        if (waits != null) {
            waits.close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
