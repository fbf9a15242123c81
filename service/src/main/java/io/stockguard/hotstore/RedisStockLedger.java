package io.stockguard.hotstore;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.journal.JournalProgress;
import io.stockguard.platform.Actor;
import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.reservation.BucketView;
import io.stockguard.reservation.HoldExtension;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.reservation.OrderOutcome;
import io.stockguard.reservation.Ownership;
import io.stockguard.reservation.OwnershipStore;
import io.stockguard.reservation.Refusal;
import io.stockguard.reservation.ReservationOutcome;
import io.stockguard.reservation.ReservationView;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.reservation.ReservedLine;
import io.stockguard.reservation.SkuStockView;
import io.stockguard.reservation.StockChangeOutcome;
import io.stockguard.reservation.StockCommand;
import io.stockguard.reservation.StockLedger;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import io.stockguard.stock.StockLine;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The standard and full tiers' ledger. Every request is served by the owner of its SKUs (see
 * {@link Ownership}): the hot store at the epoch that owns them, or the database ledger. A SKU the
 * database owns is loaded into the hot store on first use while Redis is usable; a SKU whose hot
 * store failed, lost it or was found wrong is taken over, and served by the database once the
 * hand-over is complete (after the journal's catch-up; with Kafka, also after the hand-over delay). Meanwhile the answer is "unavailable, retry": never a sale by two
 * owners at once.
 */
final class RedisStockLedger implements StockLedger {

    private static final Logger log = LoggerFactory.getLogger(RedisStockLedger.class);
    /** When a reservation refused because of the journal's backlog may be tried again. */
    private static final Duration BACKLOG_RETRY_AFTER = Duration.ofSeconds(1);
    private static final Caller EXPIRY = new Caller(new Actor(Actor.Kind.SYSTEM, "expiry"), null);
    /** Who finishes a settlement its caller left half-way (the outbox sweeper). */
    private static final Caller LEFT_HALF_WAY = new Caller(new Actor(Actor.Kind.SYSTEM, "outbox-sweeper"), null);
    /** Routing passes per request: a pass that finds an owner changed starts again. */
    private static final int PASSES_MAX = 3;

    private final HotReservations reservations;
    private final HotSettlements settlements;
    private final HotStockChanges stockChanges;
    private final StockLedger database;
    private final HotStoreSource source;
    private final OwnershipView view;
    private final HandOver handOver;
    private final RedisGateway redis;
    private final MeterRegistry meters;
    private final Clock clock;
    /** The journal applies changes to the database after they are acknowledged (both Redis tiers). */
    private final boolean journalBehind;
    private final JournalProgress journal;
    private final StoredViews storedViews;
    private final ApplicationEventPublisher events;
    private final ReplicaAcknowledgement replicas;
    private final RequestRouter router;
    private final SkuSnapshots snapshots;
    private final LostWrites lostWrites;

    RedisStockLedger(HotReservations reservations, HotSettlements settlements, HotStockChanges stockChanges,
            StockLedger database, HotStoreSource source, OwnershipView view, HandOver handOver, RedisGateway redis,
            MeterRegistry meters, Clock clock, boolean journalBehind, JournalProgress journal,
            ApplicationEventPublisher events, ReplicaAcknowledgement replicas) {
        this.events = events;
        this.replicas = replicas;
        this.reservations = reservations;
        this.settlements = settlements;
        this.stockChanges = stockChanges;
        this.database = database;
        this.source = source;
        this.view = view;
        this.handOver = handOver;
        this.redis = redis;
        this.meters = meters;
        this.clock = clock;
        this.journalBehind = journalBehind;
        this.journal = journal;
        this.storedViews = new StoredViews(database::stock);
        this.snapshots = new SkuSnapshots(redis);
        this.router = new RequestRouter(redis, view, handOver, replicas, journalBehind);
        this.lostWrites = new LostWrites(redis, source, events, clock);
    }

    @Override
    public String path() {
        return "redis";
    }

    @Override
    public ReservationOutcome reserve(ReserveCommand command) {
        List<SkuId> skus = command.lines().stream().map(StockLine::skuId).toList();
        if (!journal.admitReservation()) {
            return new Refusal.Throttled(skus.getFirst(), BACKLOG_RETRY_AFTER);
        }
        return served("reserve", skus, epochs -> reservations.reserve(command, now(), epochs),
                () -> database.reserve(command));
    }

    @Override
    public OrderOutcome confirm(OrderId orderId, Caller caller) {
        return served("confirm", skusOf(orderId), epochs -> settlements.confirm(orderId, caller, now(), epochs),
                () -> database.confirm(orderId, caller));
    }

    @Override
    public OrderOutcome cancel(OrderId orderId, Caller caller) {
        return served("cancel", skusOf(orderId), epochs -> settlements.cancel(orderId, caller, now(), epochs),
                () -> database.cancel(orderId, caller));
    }

    @Override
    public OrderOutcome extend(HoldExtension extension) {
        OrderId orderId = extension.orderId();
        return served("extend", skusOf(orderId), epochs -> settlements.extend(extension, now(), epochs),
                () -> database.extend(extension));
    }

    /** An expiry that cannot be made now is not made; the sweeper comes back to it. */
    @Override
    public boolean expire(OrderId orderId, Instant now) {
        Object outcome = this.<Object>served("expire", skusOf(orderId),
                epochs -> settlements.expire(orderId, EXPIRY, now, epochs), () -> database.expire(orderId, now));
        return Boolean.TRUE.equals(outcome);
    }

    /**
     * Finishes a confirm, cancel or expiry that its caller left half-way ({@code state}, the order
     * record's), as a retry of it would: through the SKUs' owners, so that a SKU taken over meanwhile
     * is settled where it is sold now. False when it cannot be finished now (a SKU changing hands,
     * Redis failing, an expiry the database does not find due yet).
     */
    boolean finishLeftHalfWay(OrderId orderId, String state) {
        Object outcome = switch (state) {
            case "CONFIRMING" -> confirm(orderId, LEFT_HALF_WAY);
            case "CANCELLING" -> cancel(orderId, LEFT_HALF_WAY);
            case "EXPIRING" -> {
                Instant now = now();
                // The database owning every SKU settles the order whole: it is finished either way.
                yield this.<Object>served("expire", skusOf(orderId),
                        epochs -> settlements.expire(orderId, LEFT_HALF_WAY, now, epochs),
                        () -> {
                            database.expire(orderId, now);
                            return Boolean.TRUE;
                        });
            }
            default -> throw new IllegalArgumentException("not a settlement under way: " + state);
        };
        return !(outcome instanceof Refusal.Unavailable) && !Boolean.FALSE.equals(outcome);
    }

    @Override
    public List<Due> dueForExpiry(Instant now, Due after, int limit) {
        return database.dueForExpiry(now, after, limit);
    }

    /**
     * Stock changes go through the SKU's owner: the hot store's stock script for a SKU it owns, so
     * the database never changes it behind the hot store's back; the database ledger otherwise.
     * The stored details of a stock read are forgotten only when a change made them wrong (safety
     * stock, terms): a restock changes counters only, which a read takes live from the hot store,
     * and one that fails with the database must not take the product page down with it.
     */
    @Override
    public StockChangeOutcome apply(StockCommand command) {
        SkuId sku = command.skuId();
        if (command instanceof StockCommand.Upsert upsert && view.get(sku).isEmpty()) {
            // A new SKU is created by the database, which sells it until its first use loads it.
            return database.apply(command);
        }
        if (command instanceof StockCommand.Upsert upsert) {
            checkBuckets(upsert);
        }
        StockChangeOutcome outcome = served("stock", List.of(sku), epochs -> stockChanges.apply(command,
                epochs.get(sku), now(), this::liveView), () -> database.apply(command));
        if (command instanceof StockCommand.Upsert upsert && upsert.safetyStock() != null
                && outcome instanceof StockChangeOutcome.Changed) {
            source.setSafetyStock(sku, upsert.safetyStock(), now());
            storedViews.forget(sku);
        }
        if (command instanceof StockCommand.Upsert upsert && outcome instanceof StockChangeOutcome.Changed
                && (upsert.limitPerCustomer() != null || upsert.lowStockThreshold() != null)) {
            source.setTerms(sku, upsert.limitPerCustomer(), upsert.lowStockThreshold(), now());
            storedViews.forget(sku);
            if (upsert.limitPerCustomer() != null) {
                setHotLimit(sku, upsert.limitPerCustomer());
            }
        }
        return outcome;
    }

    /**
     * Puts a new per-customer limit in force in the hot store, after the database has it. When the
     * hot store cannot take it (unreachable, or it is not at the epoch that owns the SKU), the
     * database takes the SKU over: it sells by the new limit, and a later load starts from it.
     */
    private void setHotLimit(SkuId sku, int limit) {
        if (!(view.reread(sku).orElse(null) instanceof Ownership.Hot hot)) {
            return;
        }
        String failure;
        try {
            Reply reply = new Reply(redis.run(Script.SET_LIMIT, List.of(Keys.meta(sku)),
                    List.of(Integer.toString(limit), Long.toString(hot.epoch()))));
            failure = reply.is("OK") ? null : reply.whyNot(hot.epoch());
        } catch (RedisGateway.HotStoreUnavailable e) {
            failure = e.getMessage();
        }
        if (failure != null) {
            handOver.takeOver(sku, hot.epoch(), "its hot store could not take the per-customer limit " + limit
                    + " (" + failure + ")");
        }
    }

    private void checkBuckets(StockCommand.Upsert upsert) {
        int count = source.bucketCount(upsert.skuId()).orElseThrow();
        if (upsert.bucketCount() != null && upsert.bucketCount() != count) {
            throw new InvalidRequestException("buckets", "SKU " + upsert.skuId() + " has " + count
                    + " buckets; the count is fixed once a SKU exists");
        }
    }

    /**
     * A SKU the hot store owns is read from it, with the details only the database holds taken
     * from {@link StoredViews} (at most a second old); any other SKU, or a hot store that cannot
     * answer, from the database.
     */
    @Override
    public Optional<SkuStockView> stock(SkuId skuId) {
        if (!(view.get(skuId).orElse(null) instanceof Ownership.Hot)) {
            return database.stock(skuId);
        }
        Optional<SkuStockView> stored = storedViews.get(skuId);
        if (stored.isEmpty()) {
            return stored;
        }
        try {
            Optional<SkuStockView> live = live(stored.get());
            if (live.isPresent() && live.get().mode() != stored.get().mode()) {
                // The mode changed since the details were read: its reason and author did too.
                storedViews.forget(skuId);
                live = storedViews.get(skuId).flatMap(this::live);
            }
            return live.or(() -> database.stock(skuId));
        } catch (RedisGateway.HotStoreUnavailable e) {
            return database.stock(skuId);
        }
    }

    private SkuStockView liveView(SkuId sku) {
        return stock(sku).orElseThrow(() -> new IllegalStateException("SKU " + sku + " vanished"));
    }

    /** The stored view with the hot store's live counters and mode; empty when it does not have the SKU. */
    private Optional<SkuStockView> live(SkuStockView stored) {
        SkuId sku = stored.skuId();
        if (!(snapshots.current(sku) instanceof SkuSnapshots.Read.Found(HotStore.Snapshot snapshot))) {
            return Optional.empty();
        }
        List<BucketView> buckets = snapshot.buckets().stream()
                .map(b -> new BucketView(b.bucket(), b.available(), b.reserved(), b.sold())).toList();
        return Optional.of(SkuStockView.of(sku, SkuMode.valueOf(snapshot.mode()),
                stored.modeReason(), stored.modeChangedBy(), stored.modeChangedAt(), stored.safetyStock(), buckets,
                stored.terms()));
    }

    /**
     * The hot store's record when it owns the order's SKUs and the journal is applied behind (the
     * database learns of changes later); the database's otherwise (it is complete and current).
     */
    @Override
    public Optional<ReservationView> reservation(OrderId orderId) {
        if (journalBehind) {
            try {
                Optional<ReservationView> hot = settlements.find(orderId, now(), sku ->
                        view.get(sku).orElse(null) instanceof Ownership.Hot owner ? owner.epoch() : null);
                if (hot.isPresent()) {
                    return hot;
                }
            } catch (RedisGateway.HotStoreUnavailable e) {
                log.debug("order {} read from the database: {}", orderId, e.getMessage());
            }
        }
        return database.reservation(orderId);
    }

    /**
     * Serves a request from the owner of its SKUs. The hot store serves when it owns every one of
     * them (a SKU the database owns is loaded first, while Redis is usable); the database when it
     * owns every one. A SKU in hand-over is answered "unavailable, retry". A hot store that turns
     * out not to own a SKU (or fails) has it taken over, and the request is routed again.
     */
    private <T> T served(String operation, List<SkuId> skus, Function<Map<SkuId, Long>, T> hot,
            java.util.function.Supplier<T> fallback) {
        for (int pass = 1; ; pass++) {
            RequestRouter.Route route = router.route(skus);
            try {
                return switch (route) {
                    case RequestRouter.Route.Hot h -> count(operation, "redis",
                            router.degradeIfShortOfReplicas(h, hot.apply(h.epochs())));
                    // Unknown SKUs (answered 404) and orders nobody knows are not a fallback.
                    case RequestRouter.Route.Database d ->
                            count(operation, d.owned() ? "database" : "none", fallback.get());
                    case RequestRouter.Route.Wait w -> {
                        @SuppressWarnings("unchecked")
                        T refused = (T) new Refusal.Unavailable(false, w.why());
                        yield refused;
                    }
                };
            } catch (StaleOwner stale) {
                log.info("{}: {}; taking it over", operation, stale.getMessage());
                handOver.takeOver(stale.skuId(), stale.epoch(), stale.getMessage());
                if (stale.otherHistory()) {
                    lostWrites.tell(stale.skuId(), stale.epoch());
                }
                if (stale.lostWrites()) {
                    // The post-mortem's worst incident, found by a request rather than the probe:
                    // people must hear of it (every request that meets it says so; alerts dedupe).
                    log.error("{}: the hot store lost writes; the database sells the SKU until it is reloaded",
                            stale.getMessage());
                    events.publishEvent(new io.stockguard.journal.HotStoreLostWrites(stale.skuId(), stale.epoch(),
                            stale.getMessage(), clock.instant()));
                }
            } catch (OwnershipStore.NotTheOwner moved) {
                // The database path met a SKU that changed hands since this instance looked.
                view.reread(moved.skuId());
            } catch (RedisGateway.HotStoreUnavailable failed) {
                if (!(route instanceof RequestRouter.Route.Hot)) {
                    throw failed;
                }
                @SuppressWarnings("unchecked")
                T unknown = (T) new Refusal.Unavailable(true, "Redis failed during the request: " + failed.getMessage());
                // Whatever the request did in Redis is in the outbox (and swept into the journal) or
                // undone; the caller retries with the same id and learns which.
                log.warn("{} failed in Redis: {}", operation, failed.getMessage());
                return unknown;
            }
            if (pass >= PASSES_MAX) {
                @SuppressWarnings("unchecked")
                T busy = (T) new Refusal.Unavailable(false, "SKUs " + skus + " are changing hands; retry");
                return busy;
            }
        }
    }

    private <T> T count(String operation, String path, T outcome) {
        meters.counter("stockguard.ledger.path", "op", operation, "path", path).increment();
        return outcome;
    }

    /**
     * The SKUs an order's settlement touches: from its reservation as the tier reads it, or, when
     * neither store has it closed yet, the lines the hot store's record of it asked for (a
     * reservation still being made, that a cancel must meet on its SKUs).
     */
    private List<SkuId> skusOf(OrderId orderId) {
        List<SkuId> known = reservation(orderId).map(v -> v.lines().stream().map(ReservedLine::skuId).toList())
                .orElse(List.of());
        if (!known.isEmpty() || !redis.usable()) {
            return known;
        }
        try {
            return settlements.askedSkus(orderId, now());
        } catch (RedisGateway.HotStoreUnavailable e) {
            return known;
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
