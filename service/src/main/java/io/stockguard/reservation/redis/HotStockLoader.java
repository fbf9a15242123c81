package io.stockguard.reservation.redis;

import io.stockguard.reservation.ReservationState;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.jdbc.HotStoreSource;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads SKUs into the hot store from the database, the source of truth: counters, journaled sums
 * equal to the database's applied sums (so the exact drift starts at 0), the mode, and the lines
 * of open holds (so cancel and expiry find them). A load under a new epoch is a rebase; the
 * sequences of the new epoch start at 0.
 */
final class HotStockLoader {

    private static final Logger log = LoggerFactory.getLogger(HotStockLoader.class);

    /** What a load came to. */
    enum Loaded { LOADED, PRESENT, STALE, PENDING_OUTBOX, UNKNOWN_SKU }

    private final RedisGateway redis;
    private final HotStoreSource database;
    private final HotOrders orders;
    private final RedisProperties properties;
    private final Clock clock;

    HotStockLoader(RedisGateway redis, HotStoreSource database, HotOrders orders, RedisProperties properties,
            Clock clock) {
        this.redis = redis;
        this.database = database;
        this.orders = orders;
        this.properties = properties;
        this.clock = clock;
    }

    /**
     * Loads a SKU that is not in the hot store (after a restart that lost it, or for the first
     * time). Always under a new epoch: the sequences a lost hot store handed out must never be
     * reused with the same epoch (I5).
     */
    Loaded ensureLoaded(SkuId sku) {
        Optional<HotStoreSource.SkuSource> source = database.read(sku, true);
        if (source.isEmpty()) {
            return Loaded.UNKNOWN_SKU;
        }
        // Only if absent: another instance may have loaded it a moment ago and sold from it since.
        Loaded loaded = await(send(source.get(), "PREHEAT"));
        if (loaded == Loaded.LOADED) {
            restoreOpenLines(sku);
            log.info("loaded SKU {} into the hot store under epoch {}", sku, source.get().epoch());
        }
        return loaded;
    }

    /** Replaces a SKU's hot state with the database's under a new epoch; the outbox must be drained. */
    Loaded rebase(SkuId sku) {
        Optional<HotStoreSource.SkuSource> source = database.read(sku, true);
        if (source.isEmpty()) {
            return Loaded.UNKNOWN_SKU;
        }
        Loaded loaded = await(send(source.get(), "REBASE"));
        if (loaded == Loaded.LOADED) {
            restoreOpenLines(sku);
            rewriteOrdersChangedSince(sku, source.get().invalidSince());
        }
        return loaded;
    }

    /** Sends a preheat load without waiting, for pipelined batches; the SKU keeps its epoch if present. */
    CompletableFuture<Loaded> preheat(HotStoreSource.SkuSource source) {
        return send(source, "PREHEAT");
    }

    Optional<HotStoreSource.SkuSource> source(SkuId sku) {
        return database.read(sku, true);
    }

    private CompletableFuture<Loaded> send(HotStoreSource.SkuSource source, String how) {
        List<String> arguments = new ArrayList<>(List.of(how, Integer.toString(source.bucketCount()),
                Long.toString(source.epoch()), source.mode().name()));
        for (HotStoreSource.BucketSource bucket : source.buckets()) {
            arguments.add(Long.toString(bucket.available()));
            arguments.add(Long.toString(bucket.reserved()));
            arguments.add(Long.toString(bucket.sold()));
            arguments.add(Long.toString(bucket.appliedSum()));
        }
        SkuId sku = source.skuId();
        return redis.runAsync(Script.LOAD, List.of(Keys.meta(sku), Keys.buckets(sku), Keys.outbox(sku)), arguments)
                .thenApply(values -> switch (new Reply(values).status()) {
                    case "LOADED" -> Loaded.LOADED;
                    case "PRESENT" -> Loaded.PRESENT;
                    case "STALE" -> Loaded.STALE;
                    case "OUTBOX" -> Loaded.PENDING_OUTBOX;
                    default -> throw new Reply(values).unexpected("load.lua");
                });
    }

    /** Puts back the line records of the SKU's open holds, so cancel and expiry find them. */
    void restoreOpenLines(SkuId sku) {
        for (HotStoreSource.OpenLine line : database.openLines(sku)) {
            redis.setIfAbsent(Keys.line(sku, line.orderId()), "RESERVED|" + line.bucket() + "|" + line.qty(),
                    properties.lineLifetime());
        }
    }

    /**
     * Puts back an order the hot store lost (record and lines) from the database's copy; returns
     * the copy, or empty when the database has no such order.
     */
    Optional<ReservationView> restoreOrder(OrderId order) {
        return write(order, false);
    }

    /**
     * Rewrites, from the database, the orders of a SKU that the database path changed while the
     * hot store was not serving it: their records in the hot store describe a past the database
     * has moved on from.
     */
    void rewriteOrdersChangedSince(SkuId sku, Instant since) {
        if (since == null) {
            return;
        }
        for (OrderId order : database.ordersChangedByDatabase(sku, since)) {
            write(order, true);
        }
    }

    private Optional<ReservationView> write(OrderId order, boolean overwrite) {
        Optional<ReservationView> view = database.order(order);
        view.ifPresent(found -> {
            orders.restore(found, clock.instant(), overwrite);
            String value = found.state().name();
            for (var line : found.lines()) {
                String record = value + "|" + line.bucket() + "|" + line.qty();
                if (overwrite) {
                    redis.set(Keys.line(line.skuId(), order), record, properties.lineLifetime());
                } else {
                    redis.setIfAbsent(Keys.line(line.skuId(), order), record, properties.lineLifetime());
                }
            }
        });
        return view;
    }

    private static Loaded await(CompletableFuture<Loaded> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisGateway.HotStoreUnavailable("interrupted while loading", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new RedisGateway.HotStoreUnavailable("loading failed: " + e.getCause().getMessage(), e.getCause());
        }
    }
}
