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

    /** A load's reply: what it came to, and the epoch the hot store has (-1 when the reply does not say). */
    record Load(Loaded loaded, long hotEpoch) {
    }

    /** Longer than any request of the database path takes: its events carry the request's start. */
    private static final java.time.Duration REWRITE_MARGIN = java.time.Duration.ofMinutes(1);
    /** Orders rewritten per rebuild; a rebuild after a long takeover must still end in seconds. */
    private static final int REWRITES_MAX = 20_000;
    /** Commands sent together in one pipelined batch. */
    private static final int PIPELINE_MAX = 1_000;

    private static final Object[] LOAD_LOCKS = new Object[64];

    static {
        for (int i = 0; i < LOAD_LOCKS.length; i++) {
            LOAD_LOCKS[i] = new Object();
        }
    }

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
        // Requests that find a SKU missing come in crowds; each draw of an epoch fences the hot
        // store's sales until the draw is given back, so only one draws, and only if still needed.
        synchronized (LOAD_LOCKS[Math.floorMod(sku.hashCode(), LOAD_LOCKS.length)]) {
            if (redis.exist(List.of(Keys.meta(sku))).getFirst()) {
                return Loaded.PRESENT;
            }
            return drawAndLoad(sku);
        }
    }

    private Loaded drawAndLoad(SkuId sku) {
        Optional<HotStoreSource.SkuSource> source = database.read(sku, true);
        if (source.isEmpty()) {
            return Loaded.UNKNOWN_SKU;
        }
        // Only if absent: another instance may have loaded it a moment ago and sold from it since.
        Loaded loaded = load(source.get(), "PREHEAT");
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
        Loaded loaded = load(source.get(), "REBASE");
        if (loaded == Loaded.LOADED) {
            restoreOpenLines(sku);
            rewriteOrdersChangedSince(sku, source.get().invalidSince());
        }
        return loaded;
    }

    /**
     * Loads under the epoch the read drew; a load that did not happen gives the epoch back, so
     * that the database's fence matches the hot store that is there.
     */
    private Loaded load(HotStoreSource.SkuSource source, String how) {
        Load load;
        try {
            load = await(send(source, how));
        } catch (RuntimeException e) {
            giveBack(source, -1);
            throw e;
        }
        if (load.loaded() != Loaded.LOADED) {
            giveBack(source, load.hotEpoch());
        }
        return load.loaded();
    }

    /**
     * The load of this read did not happen (see {@link HotStoreSource#returnEpoch}): the database's
     * epoch goes back to the one the hot store has, or, when that is unknown, to the one before.
     */
    void giveBack(HotStoreSource.SkuSource source, long hotEpoch) {
        try {
            database.returnEpoch(source, hotEpoch >= 0 ? hotEpoch : source.epoch() - 1);
        } catch (RuntimeException e) {
            // Safe as it is: the database refuses the hot store's sales until the SKU is rebuilt.
            log.warn("could not give back epoch {} of SKU {}: its hot store's sales are refused until it is rebuilt",
                    source.epoch(), source.skuId(), e);
        }
    }

    /** Sends a preheat load without waiting, for pipelined batches; the SKU keeps its epoch if present. */
    CompletableFuture<Load> preheat(HotStoreSource.SkuSource source) {
        return send(source, "PREHEAT");
    }

    private CompletableFuture<Load> send(HotStoreSource.SkuSource source, String how) {
        List<String> arguments = new ArrayList<>(List.of(how, Integer.toString(source.bucketCount()),
                Long.toString(source.epoch()), source.mode().name()));
        for (HotStoreSource.BucketSource bucket : source.buckets()) {
            arguments.add(Long.toString(bucket.available()));
            arguments.add(Long.toString(bucket.reserved()));
            arguments.add(Long.toString(bucket.sold()));
            arguments.add(Long.toString(bucket.appliedSum()));
        }
        arguments.add(Integer.toString(source.throttleRate()));
        SkuId sku = source.skuId();
        return redis.runAsync(Script.LOAD, List.of(Keys.meta(sku), Keys.buckets(sku), Keys.outbox(sku)), arguments)
                .thenApply(values -> {
                    Reply reply = new Reply(values);
                    return switch (reply.status()) {
                        case "LOADED" -> new Load(Loaded.LOADED, source.epoch());
                        case "PRESENT" -> new Load(Loaded.PRESENT, reply.number(1));
                        case "STALE" -> new Load(Loaded.STALE, reply.number(1));
                        case "OUTBOX" -> new Load(Loaded.PENDING_OUTBOX, -1);
                        default -> throw reply.unexpected("load.lua");
                    };
                });
    }

    /** Puts back the line records of the SKU's open holds, so cancel and expiry find them. */
    void restoreOpenLines(SkuId sku) {
        List<HotStoreSource.OpenLine> open = database.openLines(sku);
        for (int from = 0; from < open.size(); from += PIPELINE_MAX) {
            java.util.Map<String, String> records = new java.util.LinkedHashMap<>();
            for (HotStoreSource.OpenLine line : open.subList(from, Math.min(open.size(), from + PIPELINE_MAX))) {
                records.put(Keys.line(sku, line.orderId()), "RESERVED|" + line.bucket() + "|" + line.qty());
            }
            redis.setAllIfAbsent(records, properties.lineLifetime());
        }
    }

    /**
     * Puts back an order the hot store lost (record and lines) from the database's copy; returns
     * the copy, or empty when the database has no such order.
     */
    Optional<ReservationView> restoreOrder(OrderId order) {
        return write(order, false);
    }

    /** Replaces the hot store's record of an order (and its lines) with the database's copy. */
    Optional<ReservationView> rewriteOrder(OrderId order) {
        return write(order, true);
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
        // The rest is caught lazily: a settlement the hot store cannot make, or the database
        // refuses, goes to the database path (see HotSettlements).
        // Only orders the hot store has a record of can be stale there; the others are restored
        // from the database when first asked for.
        List<OrderId> changed = database.ordersChangedByDatabase(sku, since.minus(REWRITE_MARGIN), REWRITES_MAX);
        for (int from = 0; from < changed.size(); from += PIPELINE_MAX) {
            List<OrderId> page = changed.subList(from, Math.min(changed.size(), from + PIPELINE_MAX));
            List<Boolean> present = redis.exist(page.stream().map(Keys::order).toList());
            for (int i = 0; i < page.size(); i++) {
                if (present.get(i)) {
                    write(page.get(i), true);
                }
            }
        }
    }

    private Optional<ReservationView> write(OrderId order, boolean overwrite) {
        Optional<ReservationView> view = database.order(order);
        view.ifPresent(found -> {
            // A record written now (the hot store had none) has line records that may be stale
            // (a reservation undone here and then made on the database path): they follow it.
            boolean written = orders.restore(found, clock.instant(), overwrite).is("OK");
            String value = found.state().name();
            for (var line : found.lines()) {
                String record = value + "|" + line.bucket() + "|" + line.qty();
                if (overwrite || written) {
                    redis.set(Keys.line(line.skuId(), order), record, properties.lineLifetime());
                } else {
                    redis.setIfAbsent(Keys.line(line.skuId(), order), record, properties.lineLifetime());
                }
            }
        });
        return view;
    }

    private static Load await(CompletableFuture<Load> future) {
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
