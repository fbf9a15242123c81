package io.stockguard.hotstore;

import io.stockguard.reservation.HotStoreSource;
import io.stockguard.reservation.OwnershipStore;
import io.stockguard.reservation.ReservationView;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.ToLongFunction;

/**
 * Writes the database's state into the hot store: a SKU's counters when the hot store becomes its
 * owner (under the epoch the database gave it), and the database's copy of an order whose hot
 * record is missing or was written under another epoch (the database is the truth for those).
 */
final class HotStockLoader {

    /**
     * What a load came to: loaded; refused because Redis has a newer epoch (STALE); or refused
     * because Redis reports fewer replicas connected than {@code wait-replicas} asks for.
     */
    enum Loaded { LOADED, STALE, NO_REPLICAS }

    /** Open holds restored with a load; the rest are found in the database when first used. */
    private static final int OPEN_LINES_MAX = 50_000;
    /** Commands sent together in one pipelined batch. */
    private static final int PIPELINE_MAX = 1_000;

    private final RedisGateway redis;
    private final HotStoreSource database;
    private final HotOrders orders;
    private final RedisProperties properties;
    private final Clock clock;
    private final ReplicaAcknowledgement replicas;
    private final java.time.Duration replayCheckAfterLoss;

    /**
     * @param replayCheckAfterLoss after a load that follows a loss or the database's ownership, how
     *     long a reservation of an order the hot store has no line of asks the database first (zero:
     *     never)
     */
    HotStockLoader(RedisGateway redis, HotStoreSource database, HotOrders orders, RedisProperties properties,
            Clock clock, ReplicaAcknowledgement replicas, java.time.Duration replayCheckAfterLoss) {
        this.replicas = replicas;
        this.replayCheckAfterLoss = replayCheckAfterLoss;
        this.redis = redis;
        this.database = database;
        this.orders = orders;
        this.properties = properties;
        this.clock = clock;
    }

    /** Whether a load may be tried now (see {@link ReplicaAcknowledgement#mayLoad()}); ask it before any lock. */
    boolean mayLoad() {
        return replicas.mayLoad();
    }

    /** Loads the SKU and puts back its open holds; a Redis failure is thrown (the outcome is then unknown). */
    Loaded load(OwnershipStore.HotSource source) {
        Loaded loaded = await(send(source));
        if (loaded == Loaded.LOADED) {
            restoreOpenLines(source.skuId(), source.epoch());
        }
        return loaded;
    }

    /** Sends a load without waiting, for pipelined preheat batches. */
    CompletableFuture<Loaded> send(OwnershipStore.HotSource source) {
        List<String> arguments = new ArrayList<>(List.of(Integer.toString(source.bucketCount()),
                Long.toString(source.epoch()), source.mode().name()));
        for (OwnershipStore.HotBucketSource bucket : source.buckets()) {
            arguments.add(Long.toString(bucket.available()));
            arguments.add(Long.toString(bucket.reserved()));
            arguments.add(Long.toString(bucket.sold()));
            arguments.add(Long.toString(bucket.appliedSum()));
        }
        arguments.add(Integer.toString(source.throttleRate()));
        arguments.add(Integer.toString(source.limitPerCustomer()));
        arguments.add(Integer.toString(replicas.wanted()));
        arguments.add(Long.toString(clock.millis()));
        arguments.add(Long.toString(replayCheckAfterLoss.toMillis()));
        source.customerHolds().forEach((customer, units) -> {
            arguments.add(customer);
            arguments.add(Long.toString(units));
        });
        SkuId sku = source.skuId();
        // Registered before it is loaded, and loaded only once the register has it: a copy the
        // register lacks would leave its outbox to the sweeper's slow walk of every key.
        return redis.registerLoaded(sku)
                .thenCompose(registered -> redis.runAsync(Script.LOAD, List.of(Keys.meta(sku), Keys.buckets(sku),
                        Keys.outbox(sku), Keys.customers(sku), Keys.gives(sku)), arguments))
                .thenApply(values -> {
                    Reply reply = new Reply(values);
                    return switch (reply.status()) {
                        case "LOADED" -> {
                            replicas.present();
                            yield Loaded.LOADED;
                        }
                        case "STALE" -> Loaded.STALE;
                        case "NO_REPLICAS" -> Loaded.NO_REPLICAS;
                        default -> throw reply.unexpected("load.lua");
                    };
                });
    }

    /** Puts back the line records of the SKU's open holds, so that cancel and expiry find them at once. */
    void restoreOpenLines(SkuId sku, long epoch) {
        List<HotStoreSource.OpenLine> open = database.openLines(sku, OPEN_LINES_MAX);
        for (int from = 0; from < open.size(); from += PIPELINE_MAX) {
            Map<String, String> records = new LinkedHashMap<>();
            for (HotStoreSource.OpenLine line : open.subList(from, Math.min(open.size(), from + PIPELINE_MAX))) {
                records.put(Keys.line(sku, line.orderId()), HotLines.record(line.state(), line.bucket(), line.qty(),
                        epoch, line.customerId()));
            }
            redis.setAll(records, properties.lineLifetime());
        }
    }

    /**
     * Replaces the hot store's record of an order and of its lines with the database's copy, its
     * lines stamped with the epochs the hot store has now; empty when the database has no such
     * order (the hot store's record, if any, is then removed: nothing the database does not have
     * was ever acknowledged from an older epoch).
     */
    Optional<ReservationView> rewriteOrder(OrderId order, ToLongFunction<SkuId> epochs) {
        return rewriteOrder(order, epochs, false);
    }

    /** As {@link #rewriteOrder(OrderId, ToLongFunction)}, overwriting even a record left half-way under the current epochs. */
    Optional<ReservationView> rewriteOrder(OrderId order, ToLongFunction<SkuId> epochs, boolean force) {
        Optional<HotStoreSource.StoredOrder> stored = database.storedOrder(order);
        Optional<ReservationView> view = stored.map(HotStoreSource.StoredOrder::view);
        if (view.isEmpty()) {
            Optional<HotOrders.OrderRecord> record = orders.get(order, clock.instant());
            Map<SkuId, Long> current = new LinkedHashMap<>();
            if (record.isPresent()) {
                RecordedLines.epochs(record.get().recorded()).keySet()
                        .forEach(sku -> current.put(sku, epochs.applyAsLong(sku)));
            }
            orders.forget(order, current, clock.instant());
            return view;
        }
        Map<SkuId, Long> stamped = new LinkedHashMap<>();
        view.get().lines().forEach(line -> stamped.put(line.skuId(), epochs.applyAsLong(line.skuId())));
        // The lines first, the order's record last. The record, once stamped with the epochs that
        // own the SKUs now, is believed by the next attempt; had it been written first and this
        // request died (or Redis failed) before its lines, a retried cancel found a current record
        // with no line, took the line for one never reserved (a tombstone, as for a cancel that
        // overtakes its reserve), and acknowledged a cancel that nothing journaled: the chaos
        // suite's instance-kill did that to an order made on the database path.
        for (var line : view.get().lines()) {
            restoreLine(line.skuId(), order, stamped.get(line.skuId()), HotLines.record(view.get().state().name(),
                    line.bucket(), line.qty(), stamped.get(line.skuId()), view.get().customerId()));
        }
        orders.restore(view.get(), stored.get().fingerprint(), stamped, clock.instant(), force);
        return view;
    }

    /** Writes a line's record from the database unless a change under the current epoch got there first. */
    private void restoreLine(SkuId sku, OrderId order, long epoch, String record) {
        if (epoch > 0) {
            redis.run(Script.RESTORE_LINE, List.of(Keys.meta(sku), Keys.line(sku, order)), List.of(
                    Long.toString(epoch), record, Long.toString(properties.lineLifetime().toSeconds())));
        }
    }

    /** Replaces one line's record with what the database says of it (nothing: the record goes). */
    void rewriteLine(OrderId order, SkuId sku, long epoch) {
        Optional<ReservationView> view = database.order(order);
        Optional<io.stockguard.reservation.ReservedLine> line = view.flatMap(v -> v.lines().stream()
                .filter(l -> l.skuId().equals(sku)).findFirst());
        if (line.isPresent()) {
            restoreLine(sku, order, epoch, HotLines.record(view.get().state().name(), line.get().bucket(),
                    line.get().qty(), epoch, view.get().customerId()));
        } else if (view.isPresent() && view.get().isTombstone()) {
            restoreLine(sku, order, epoch, HotLines.record("CANCELLED", -1, 0, epoch, null));
        } else {
            restoreLine(sku, order, epoch, "");
        }
    }

    /** The order as the database has it. */
    Optional<ReservationView> order(OrderId order) {
        return database.order(order);
    }

    /** Writes an extension the hot store decided through to the database; empty while it has no row for the order. */
    Optional<ReservationView> recordExtension(OrderId order, java.time.Instant holdEnds, int extensions,
            io.stockguard.platform.Caller caller, java.time.Instant now) {
        return database.recordExtension(order, holdEnds, extensions, caller, now);
    }

    /** Records an early cancel's tombstone in the database (I7). */
    void tombstone(OrderId order, String traceId, java.time.Instant now) {
        database.tombstone(order, traceId, now);
    }

    private static Loaded await(CompletableFuture<Loaded> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisGateway.HotStoreUnavailable("interrupted while loading", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RedisGateway.HotStoreUnavailable unavailable) {
                throw unavailable;
            }
            throw new RedisGateway.HotStoreUnavailable("loading failed: " + e.getCause().getMessage(), e.getCause());
        }
    }
}
