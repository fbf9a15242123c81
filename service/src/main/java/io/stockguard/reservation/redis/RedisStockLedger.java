package io.stockguard.reservation.redis;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.platform.Actor;
import io.stockguard.platform.Caller;
import io.stockguard.reservation.OrderOutcome;
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
    private static final Caller EXPIRY = new Caller(new Actor(Actor.Kind.SYSTEM, "expiry"), null);

    private final HotReservations reservations;
    private final HotSettlements settlements;
    private final HotStockMirror mirror;
    private final StockLedger database;
    private final HotStoreRouting routing;
    private final MeterRegistry meters;
    private final Clock clock;

    RedisStockLedger(HotReservations reservations, HotSettlements settlements, HotStockMirror mirror,
            StockLedger database, HotStoreRouting routing, MeterRegistry meters, Clock clock) {
        this.reservations = reservations;
        this.settlements = settlements;
        this.mirror = mirror;
        this.database = database;
        this.routing = routing;
        this.meters = meters;
        this.clock = clock;
    }

    @Override
    public String path() {
        return "redis";
    }

    @Override
    public ReservationOutcome reserve(ReserveCommand command) {
        List<SkuId> skus = command.lines().stream().map(StockLine::skuId).toList();
        return served("reserve", skus, () -> reservations.reserve(command, now()), () -> database.reserve(command));
    }

    @Override
    public OrderOutcome confirm(OrderId orderId, Caller caller) {
        return served("confirm", skusOf(orderId), () -> settlements.confirm(orderId, caller, now()),
                () -> database.confirm(orderId, caller));
    }

    @Override
    public OrderOutcome cancel(OrderId orderId, Caller caller) {
        return served("cancel", skusOf(orderId), () -> settlements.cancel(orderId, caller, now()),
                () -> database.cancel(orderId, caller));
    }

    @Override
    public boolean expire(OrderId orderId, Instant now) {
        return served("expire", skusOf(orderId), () -> settlements.expire(orderId, EXPIRY, now),
                () -> database.expire(orderId, now));
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

    @Override
    public Optional<ReservationView> reservation(OrderId orderId) {
        return database.reservation(orderId);
    }

    /**
     * Serves from Redis when it may, from the database otherwise. A Redis failure in the middle
     * of a request falls back too: whatever the request did in Redis is either undone or, being
     * in the outbox, swept into the database, and the SKUs are rebuilt before Redis serves them.
     */
    private <T> T served(String operation, List<SkuId> skus, Supplier<T> hot, Supplier<T> fallback) {
        if (routing.hotFor(skus)) {
            try {
                T outcome = hot.get();
                meters.counter("stockguard.ledger.path", "op", operation, "path", "redis").increment();
                return outcome;
            } catch (RedisGateway.HotStoreUnavailable e) {
                log.warn("{} falls back to the database: {}", operation, e.getMessage());
            }
        }
        routing.servedByDatabase(skus);
        meters.counter("stockguard.ledger.path", "op", operation, "path", "database").increment();
        log.debug("{} of {} served by the database", operation, skus);
        return fallback.get();
    }

    private List<SkuId> skusOf(OrderId orderId) {
        return database.reservation(orderId).map(view -> view.lines().stream().map(ReservedLine::skuId).toList())
                .orElse(List.of());
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
