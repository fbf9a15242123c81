package io.stockguard.hotstore;

import io.stockguard.audit.AuditLog;
import io.stockguard.platform.Caller;
import io.stockguard.hotstore.HotStore;
import io.stockguard.reservation.Ownership;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.springframework.transaction.support.TransactionTemplate;

/** The operator's side of the hot store: preheat, rebuild, snapshot. */
final class HotStoreOperations implements HotStore {

    private final SkuSnapshots snapshots;
    private final HandOver handOver;
    private final Preheater preheater;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final HotOrders orders;
    private final Clock clock;
    private final FollowedServer followed;

    HotStoreOperations(RedisGateway redis, HandOver handOver, Preheater preheater, AuditLog audit,
            TransactionTemplate transactions, HotOrders orders, Clock clock, RedisProperties properties) {
        this.snapshots = new SkuSnapshots(redis);
        this.followed = new FollowedServer(redis, properties);
        this.handOver = handOver;
        this.preheater = preheater;
        this.audit = audit;
        this.transactions = transactions;
        this.orders = orders;
        this.clock = clock;
    }

    @Override
    public PreheatStatus preheat(Caller caller) {
        PreheatStatus status = preheater.start(caller);
        // A manual action like any other: who started it, when, and what it set out to do.
        transactions.executeWithoutResult(tx -> audit.record(caller.actor(), "PREHEAT", "hot-store",
                "preheat requested", null, Map.of("state", status.state(), "total", status.total()),
                caller.traceId()));
        return status;
    }

    @Override
    public PreheatStatus preheatStatus() {
        return preheater.status();
    }

    @Override
    public Server server() {
        return followed.describe();
    }

    /**
     * Drain and rebase, as ownership transitions: the hot store is taken over (nobody sells it),
     * drained (everything it journaled is applied), then loaded again from the database under a new
     * epoch, with the database's mode. Answers false when the drain did not finish in time (the SKU
     * then stays with the database, which sells it) or Redis failed.
     */
    @Override
    public Rebuilt rebuild(SkuId sku, String reason, Caller caller) {
        Optional<Snapshot> before = snapshot(sku);
        handOver.takeOverCurrent(sku, "rebuild asked by " + caller.actor() + ": " + reason);
        Optional<Ownership> drained = handOver.awaitDrained(sku, handOver.handOverTime().plusSeconds(2));
        boolean rebuilt = false;
        if (drained.isPresent() && drained.get() instanceof Ownership.Database) {
            try {
                rebuilt = handOver.ensureHotNow(sku).orElse(null) instanceof Ownership.Hot;
            } catch (RedisGateway.HotStoreUnavailable e) {
                rebuilt = false;
            }
        }
        Optional<Snapshot> after = snapshot(sku);
        transactions.executeWithoutResult(status -> audit.record(caller.actor(), "REBUILD", "sku:" + sku, reason,
                before.map(HotStoreOperations::summary).orElse(null), after.map(HotStoreOperations::summary)
                        .orElse(null), caller.traceId()));
        return new Rebuilt(sku, rebuilt, before.orElse(null), after.orElse(null));
    }

    @Override
    public void handOver(SkuId sku, String why) {
        handOver.takeOverCurrent(sku, why);
    }

    @Override
    public Optional<Snapshot> snapshot(SkuId sku) {
        return snapshots.current(sku) instanceof SkuSnapshots.Read.Found(Snapshot found) ? Optional.of(found)
                : Optional.empty();
    }

    @Override
    public Optional<Snapshot> copyOfAnotherHistory(SkuId sku) {
        if (snapshots.current(sku) instanceof SkuSnapshots.Read.NotHere(NotOwner why) && why.otherHistory()
                && snapshots.anyHistory(sku) instanceof SkuSnapshots.Read.Found(Snapshot copy)) {
            return Optional.of(copy);
        }
        return Optional.empty();
    }

    @Override
    public Optional<HotOrder> order(OrderId order) {
        return orders.get(order, clock.instant()).map(found -> new HotOrder(order, found.state(), found.lines(),
                found.recorded(), found.createdAt(), found.holdEndsAt(), found.traceId()));
    }

    private static Map<String, Object> summary(Snapshot snapshot) {
        long available = snapshot.buckets().stream().mapToLong(HotBucket::available).sum();
        long reserved = snapshot.buckets().stream().mapToLong(HotBucket::reserved).sum();
        long sold = snapshot.buckets().stream().mapToLong(HotBucket::sold).sum();
        return Map.of("epoch", snapshot.epoch(), "mode", snapshot.mode(), "available", available, "reserved",
                reserved, "sold", sold);
    }
}
