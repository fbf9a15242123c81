package io.stockguard.hotstore;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.stockguard.audit.AuditLog;
import io.stockguard.guard.SkuModeStore;
import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventApplier;
import io.stockguard.journal.JournalProgress;
import io.stockguard.hotstore.HotStore;
import io.stockguard.reservation.StockLedger;
import io.stockguard.reservation.DatabaseLedger;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.reservation.OwnershipStore;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.transaction.support.TransactionTemplate;

/** Wires the Redis hot path ({@code stockguard.ledger=redis}): the standard and full tiers. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "stockguard.ledger", havingValue = "redis")
class RedisLedgerConfiguration {

    private static final Logger log = LoggerFactory.getLogger(RedisLedgerConfiguration.class);

    @Bean
    CircuitBreaker redisBreaker(RedisProperties properties, MeterRegistry meters) {
        CircuitBreakerConfig config = CircuitBreakerConfig.custom()
                .failureRateThreshold(properties.breaker().failureRateThreshold())
                .slidingWindowSize(properties.breaker().slidingWindowSize())
                .minimumNumberOfCalls(Math.min(5, properties.breaker().slidingWindowSize()))
                .waitDurationInOpenState(properties.breaker().openFor())
                .permittedNumberOfCallsInHalfOpenState(3)
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .build();
        CircuitBreakerRegistry registry = CircuitBreakerRegistry.of(config);
        TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(registry).bindTo(meters);
        CircuitBreaker breaker = registry.circuitBreaker("redis");
        breaker.getEventPublisher().onStateTransition(event -> log.warn("Redis circuit breaker: {}",
                event.getStateTransition()));
        return breaker;
    }

    @Bean(destroyMethod = "close")
    RedisGateway redisGateway(RedisProperties properties, CircuitBreaker redisBreaker,
            ObservationRegistry observations) {
        return new RedisGateway(properties, redisBreaker, observations);
    }

    @Bean
    HotOrders hotOrders(RedisGateway redis, RedisProperties properties) {
        return new HotOrders(redis, properties);
    }

    @Bean
    ReplicaAcknowledgement replicaAcknowledgement(RedisGateway redis, RedisProperties properties,
            MeterRegistry meters) {
        return new ReplicaAcknowledgement(redis, properties, meters);
    }

    /** The {@code hotStore} health component, and the start log's line on failover protection. */
    @Bean
    FailoverProtection hotStoreHealthIndicator(ReplicaAcknowledgement replicas, RedisProperties properties) {
        FailoverProtection protection = new FailoverProtection(replicas);
        log.info("Redis failover protection: history fence {}; replica acknowledgement {}{}",
                FailoverProtection.HISTORY_FENCE, protection.replicaAcknowledgement(), properties.cluster()
                        && properties.waitReplicas() > 0 ? " (wait-replicas is not used in Redis Cluster)" : "");
        return protection;
    }

    /**
     * After a load that follows a loss of Redis's data, or the database's ownership of
     * the SKU (whose confirmed and cancelled orders never were in Redis), reservations of orders the
     * hot store does not know are looked up in the database for this long: longer than an order
     * service keeps retrying, and than a hold lasts by default. Each such reservation costs one read
     * of the database by key meanwhile. Both Redis tiers' journals are applied behind the answer,
     * so the database cannot refuse such a sale before it is acknowledged. (The standard tier's
     * append also applies at once a reservation of an order the database has; this look-up
     * answers it without a sale in the hot store first.)
     */
    static final Duration REPLAY_CHECK_AFTER_LOSS = Duration.ofMinutes(15);

    @Bean
    HotStockLoader hotStockLoader(RedisGateway redis, HotStoreSource source, HotOrders orders,
            RedisProperties properties, Clock clock, ReplicaAcknowledgement replicas, JournalProgress progress) {
        return new HotStockLoader(redis, source, orders, properties, clock, replicas,
                progress.behind() ? REPLAY_CHECK_AFTER_LOSS : Duration.ZERO);
    }

    @Bean
    OutboxSweeper outboxSweeper(RedisGateway redis, EventApplier applier, HotOrders orders, HotStoreSource source,
            RedisProperties properties, TaskScheduler scheduler, Clock clock) {
        return new OutboxSweeper(redis, events -> applier.apply(events, false), orders, source, properties,
                scheduler, clock);
    }

    @Bean
    InstancePresence instancePresence(RedisGateway redis) {
        return new InstancePresence(redis);
    }

    @Bean
    PendingGiveUps pendingGiveUps(HotOrders orders, Clock clock, TaskScheduler scheduler) {
        return new PendingGiveUps(orders, clock, scheduler);
    }

    @Bean
    OwnershipView ownershipView(OwnershipStore store) {
        return OwnershipView.onItsOwnThread(store);
    }

    /**
     * With the standard tier's journal a hand-over waits only for the journal's catch-up: the
     * journal refuses a late sale of the hot store being stopped before it is acknowledged. With
     * Kafka the hot store's sales are acknowledged before anything checks who sells, so the
     * hand-over also waits the delay (the longest an instance may go on selling on what it last knew).
     */
    @Bean
    HandOver handOver(OwnershipStore store, OwnershipView view, HotStockLoader loader, JournalProgress progress,
            RedisProperties properties, Clock clock, MeterRegistry meters, TaskScheduler scheduler) {
        return new HandOver(store, view, loader, progress,
                progress.fencesAtAppend() ? Duration.ZERO : properties.takeover().delay(),
                properties.takeover().waitMax(), properties.takeover().reloadAfter(), clock, meters, scheduler);
    }

    @Bean
    @Primary
    StockLedger redisLedger(RedisGateway redis, HotOrders orders, HotStockLoader loader, DurableJournal journal,
            OutboxSweeper sweeper, HotStoreSource source, OwnershipView view, HandOver handOver,
            DatabaseLedger databaseLedger, RedisProperties properties, JournalProgress progress,
            AuditLog audit, TransactionTemplate transactions, MeterRegistry meters, Clock clock,
            org.springframework.context.ApplicationEventPublisher events, ReplicaAcknowledgement replicas,
            PendingGiveUps giveUps, InstancePresence presence) {
        HotLines lines = new HotLines(redis, properties);
        HotReservations reservations = new HotReservations(orders, lines, loader, journal, source, redis,
                properties, replicas, giveUps, presence, progress);
        HotSettlements settlements = new HotSettlements(orders, lines, loader, journal, redis, properties, progress,
                replicas);
        HotStockChanges changes = new HotStockChanges(lines, journal, source, redis, audit, transactions, replicas);
        RedisStockLedger ledger = new RedisStockLedger(reservations, settlements, changes, databaseLedger.ledger(),
                source, view, handOver, redis, meters, clock, progress.behind(), progress, events, replicas);
        sweeper.finishLeftSettlementsWith(ledger::finishLeftHalfWay);
        return ledger;
    }

    @Bean
    HotStore hotStore(RedisGateway redis, HandOver handOver, HotStockLoader loader, HotStoreSource source,
            OwnershipStore owners, HotOrders orders, RedisProperties properties, AuditLog audit,
            TransactionTemplate transactions, Clock clock) {
        return new HotStoreOperations(redis, handOver, new Preheater(loader, source, owners,
                properties.preheat(), clock), audit, transactions, orders, clock, properties);
    }

    @Bean
    @Primary
    SkuModeStore redisModeStore(@Qualifier("databaseModeStore") SkuModeStore database, RedisGateway redis,
            OwnershipView view, HandOver handOver) {
        return new RedisModeStore(database, redis, view, handOver);
    }
}
