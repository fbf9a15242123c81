package io.stockguard.reservation.redis;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.journal.JournalProgress;
import io.stockguard.platform.Actor;
import io.stockguard.platform.Caller;
import io.stockguard.reservation.OrderOutcome;
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
import io.stockguard.stock.StockLine;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standard and full tiers' ledger: Redis takes the load, the database stays the source of
 * truth. When Redis fails (the breaker opens) or a SKU is not trustworthy in Redis, the database
 * ledger serves instead, failing closed: it sells only what the database holds, and the SKUs it
 * sold are rebuilt from the database before Redis serves them again.
 */
final class RedisStockLedger implements StockLedger {

    private static final Logger log = LoggerFactory.getLogger(RedisStockLedger.class);
    /** When a reservation refused because of the journal's backlog may be tried again. */
    private static final java.time.Duration BACKLOG_RETRY_AFTER = java.time.Duration.ofSeconds(1);
    private static final Caller EXPIRY = new Caller(new Actor(Actor.Kind.SYSTEM, "expiry"), null);

    private final HotReservations reservations;
    private final HotSettlements settlements;
    private final HotStockMirror mirror;
    private final StockLedger database;
    private final HotStoreRouting routing;
    private final MeterRegistry meters;
    private final Clock clock;
    /** The journal applies changes to the database after they are acknowledged (Kafka). */
    private final boolean journalBehind;
    private final TakeoverGate gate;
    private final JournalProgress journal;

    RedisStockLedger(HotReservations reservations, HotSettlements settlements, HotStockMirror mirror,
            StockLedger database, HotStoreRouting routing, MeterRegistry meters, Clock clock, boolean journalBehind,
            TakeoverGate gate, JournalProgress journal) {
        this.reservations = reservations;
        this.settlements = settlements;
        this.mirror = mirror;
        this.database = database;
        this.routing = routing;
        this.meters = meters;
        this.clock = clock;
        this.journalBehind = journalBehind;
        this.gate = gate;
        this.journal = journal;
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
        return served("reserve", skus, () -> reservations.reserve(command, now()), () -> {
            String notYet = gate.readyToSell(skus);
            return notYet == null ? database.reserve(command) : new Refusal.Unavailable(false, notYet);
        }, RedisStockLedger::redisFailed);
    }

    @Override
    public OrderOutcome confirm(OrderId orderId, Caller caller) {
        List<SkuId> skus = skusOf(orderId);
        return served("confirm", skus, () -> settlements.confirm(orderId, caller, now()), () -> {
            String notYet = gate.readyToSettle(skus);
            return notYet == null ? database.confirm(orderId, caller) : new Refusal.Unavailable(false, notYet);
        }, RedisStockLedger::redisFailed);
    }

    @Override
    public OrderOutcome cancel(OrderId orderId, Caller caller) {
        List<SkuId> skus = skusOf(orderId);
        return served("cancel", skus, () -> settlements.cancel(orderId, caller, now()), () -> {
            String notYet = gate.readyToSettle(skus);
            return notYet == null ? database.cancel(orderId, caller) : new Refusal.Unavailable(false, notYet);
        }, RedisStockLedger::redisFailed);
    }

    /** An expiry that cannot be made now is not made; the sweeper comes back to it. */
    @Override
    public boolean expire(OrderId orderId, Instant now) {
        List<SkuId> skus = skusOf(orderId);
        return served("expire", skus, () -> settlements.expire(orderId, EXPIRY, now),
                () -> gate.readyToSettle(skus) == null && database.expire(orderId, now), () -> false);
    }

    @Override
    public List<OrderId> dueForExpiry(Instant now, int limit) {
        return database.dueForExpiry(now, limit);
    }

    /** Stock changes go to the database first (the source of truth), then into the hot store. */
    @Override
    public StockChangeOutcome apply(StockCommand command) {
        StockChangeOutcome outcome = database.apply(command);
        if (outcome instanceof StockChangeOutcome.Changed changed && !changed.replayed()) {
            if (!routing.hotUsable() || !mirror.mirror(changed)) {
                routing.servedByDatabase(List.of(command.skuId()));
            }
        }
        return outcome;
    }

    @Override
    public Optional<SkuStockView> stock(SkuId skuId) {
        Optional<SkuStockView> stored = database.stock(skuId);
        if (stored.isEmpty() || !routing.hotFor(List.of(skuId))) {
            return stored;
        }
        try {
            return Optional.of(mirror.live(stored.get()));
        } catch (RedisGateway.HotStoreUnavailable e) {
            return stored;
        }
    }

    /**
     * The database's copy when the journal is synchronous (it is complete and current); the hot
     * store's first when the journal is Kafka, because the database learns of changes later.
     */
    @Override
    public Optional<ReservationView> reservation(OrderId orderId) {
        if (journalBehind && routing.hotUsable()) {
            try {
                Optional<ReservationView> hot = settlements.find(orderId, now());
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
     * Serves from Redis when it may, from the database otherwise. A Redis failure in the middle
     * of a request falls back too: whatever the request did in Redis is either undone or, being
     * in the outbox, swept into the database, and the SKUs are rebuilt before Redis serves them.
     */
    private <T> T served(String operation, List<SkuId> skus, Supplier<T> hot, Supplier<T> fallback,
            Supplier<T> unknown) {
        if (routing.hotFor(skus)) {
            try {
                T outcome = hot.get();
                meters.counter("stockguard.ledger.path", "op", operation, "path", "redis").increment();
                return outcome;
            } catch (RedisGateway.HotStoreUnavailable e) {
                if (journalBehind && routing.hotUsable()) {
                    // In the full tier taking a SKU over from Redis costs seconds of refusals: one
                    // failed call is not worth it while Redis as a whole still answers. The caller
                    // retries with the same id and learns what the failed call did.
                    log.warn("{} failed in Redis ({}); not taking {} over while Redis answers", operation,
                            e.getMessage(), skus);
                    return unknown.get();
                }
                log.warn("{} falls back to the database: {}", operation, e.getMessage());
            }
        }
        routing.servedByDatabase(skus);
        meters.counter("stockguard.ledger.path", "op", operation, "path", "database").increment();
        log.debug("{} of {} served by the database", operation, skus);
        return fallback.get();
    }

    /** A Redis call failed part-way: what it did is unknown to this request, so the caller is told so. */
    private static Refusal redisFailed() {
        return new Refusal.Unavailable(true, "Redis failed during the request");
    }

    private List<SkuId> skusOf(OrderId orderId) {
        return reservation(orderId).map(view -> view.lines().stream().map(ReservedLine::skuId).toList())
                .orElse(List.of());
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
