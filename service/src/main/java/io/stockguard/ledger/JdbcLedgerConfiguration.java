package io.stockguard.ledger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.stockguard.audit.AuditLog;
import io.stockguard.guard.SkuModeStore;
import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventApplier;
import io.stockguard.journal.Journal;
import io.stockguard.journal.JournalProgress;
import io.stockguard.journal.SynchronousJournal;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.TierProperties;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reservation.DatabaseLedger;
import io.stockguard.reservation.HotStoreSource;
import io.stockguard.reservation.OwnershipStore;
import io.stockguard.reservation.ReservationProperties;
import io.stockguard.reservation.SkuCatalogue;
import io.stockguard.reservation.StockLedger;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Wires the database ledger: the hot path of the embedded / small tier, and in the Redis tiers the
 * fallback path, the journal applier and the source the hot store is loaded from.
 */
@Configuration(proxyBeanMethods = false)
class JdbcLedgerConfiguration {

    @Bean
    SqlStatements ledgerStatements(SqlDialect dialect) {
        return SqlStatements.load("ledger", dialect);
    }

    @Bean
    SkuRows skuRows(JdbcTemplate jdbc, SqlStatements ledgerStatements, SqlDialect dialect,
            ReservationProperties properties) {
        return new SkuRows(jdbc, ledgerStatements, dialect, properties.bucketCacheSize());
    }

    @Bean
    StockAdministration stockAdministration(TransactionTemplate transactions, JdbcTemplate jdbc,
            SqlStatements ledgerStatements, SqlDialect dialect, SkuRows skuRows, Journal journal, AuditLog audit,
            Clock clock) {
        return new StockAdministration(transactions, jdbc, ledgerStatements, dialect, skuRows,
                new BucketRows(jdbc, ledgerStatements), journal, audit, clock);
    }

    /** Where a freeze or throttle is stored; on the Redis tiers the hot store's mode store wraps it. */
    @Bean
    SkuModeStore databaseModeStore(JdbcTemplate jdbc, SqlStatements ledgerStatements, SkuRows skuRows) {
        return new DatabaseModeStore(jdbc, ledgerStatements, skuRows, new BucketRows(jdbc, ledgerStatements));
    }

    @Bean
    SkuCatalogue skuCatalogue(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements ledgerStatements,
            SqlDialect dialect, Journal journal, Clock clock) {
        return new JdbcSkuCatalogue(transactions, jdbc, ledgerStatements, dialect, journal, clock);
    }

    @Bean
    StockLedger databaseLedger(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements ledgerStatements,
            SqlDialect dialect, SkuRows skuRows, Journal journal, StockAdministration administration, Clock clock,
            ReservationProperties properties, MeterRegistry meters) {
        BucketRows buckets = new BucketRows(jdbc, ledgerStatements);
        ReservationRows reservations = new ReservationRows(jdbc, ledgerStatements, dialect);
        JdbcStockLedger single = new JdbcStockLedger(transactions, skuRows, buckets, reservations, journal,
                administration, clock);
        if (!properties.coalescing().enabled()) {
            return single;
        }
        BatchReservations batches = new BatchReservations(transactions, skuRows, buckets, reservations, journal,
                clock);
        return new CoalescingStockLedger(single, batches, properties.coalescing(), meters);
    }

    /**
     * The database path of the Redis tiers, for the SKUs the database owns: one transaction per
     * operation (no coalescing: the hot store takes the load), each checking under a share lock that
     * the database owns the SKUs it changes.
     */
    @Bean
    DatabaseLedger databaseOwnedLedger(TransactionTemplate transactions, JdbcTemplate jdbc,
            SqlStatements ledgerStatements, SqlDialect dialect, SkuRows skuRows, Journal journal,
            StockAdministration administration, Clock clock, OwnershipStore ownershipStore) {
        StockLedger ledger = new JdbcStockLedger(transactions, skuRows, new BucketRows(jdbc, ledgerStatements),
                new ReservationRows(jdbc, ledgerStatements, dialect), journal, administration, clock, ownershipStore);
        return () -> ledger;
    }

    /**
     * Applies the hot store's events. With Kafka the events arrive already acknowledged: those of
     * a hot store being drained are applied too (the hand-over waits for them).
     */
    @Bean
    EventApplier journalApplier(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements ledgerStatements,
            SqlDialect dialect, Journal journal, JournalProgress progress) {
        ReservationRows reservations = new ReservationRows(jdbc, ledgerStatements, dialect);
        return new JournalApplier(transactions, new AppliedRows(jdbc, ledgerStatements, dialect, reservations),
                new BucketRows(jdbc, ledgerStatements), journal, progress.behind());
    }

    @Bean
    OwnershipStore ownershipStore(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements ledgerStatements,
            SqlDialect dialect, EventApplier applier) {
        return new JdbcOwnership(transactions, jdbc, ledgerStatements, dialect,
                new UnsettledLines(jdbc, ledgerStatements, applier));
    }

    @Bean
    HotStoreSource hotStoreSource(JdbcTemplate jdbc, SqlStatements ledgerStatements, SqlDialect dialect,
            SkuRows skuRows, TransactionTemplate transactions, Journal journal) {
        return new JdbcHotStoreSource(jdbc, ledgerStatements, skuRows,
                new ReservationRows(jdbc, ledgerStatements, dialect), transactions, journal);
    }

    /** The synchronous journal is never behind the database. */
    @Bean
    @ConditionalOnProperty(name = "stockguard.journal", havingValue = "database", matchIfMissing = true)
    JournalProgress immediateJournalProgress() {
        return JournalProgress.IMMEDIATE;
    }

    /** The standard tier's journal: the database itself, group-committed. The full tier replaces it. */
    @Bean
    @ConditionalOnProperty(name = "stockguard.journal", havingValue = "database", matchIfMissing = true)
    DurableJournal synchronousJournal(EventApplier journalApplier, ReservationProperties properties,
            ObservationRegistry observations) {
        return new SynchronousJournal(journalApplier, 2_000, properties.coalescing().waitMax(), observations);
    }
}
