package io.stockguard.reservation.jdbc;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.audit.AuditLog;
import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventApplier;
import io.stockguard.journal.Journal;
import io.stockguard.journal.JournalProgress;
import io.stockguard.journal.SynchronousJournal;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.TierProperties;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reservation.ReservationProperties;
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
     * The database path of the Redis tiers while Redis fails: one transaction per operation (no
     * coalescing: a degraded mode favours the simplest path), each claiming its SKUs from the hot store.
     */
    @Bean
    DatabaseFallback databaseFallback(TransactionTemplate transactions, JdbcTemplate jdbc,
            SqlStatements ledgerStatements, SqlDialect dialect, SkuRows skuRows, Journal journal,
            StockAdministration administration, Clock clock, TierProperties tier) {
        StockLedger ledger = new JdbcStockLedger(transactions, skuRows, new BucketRows(jdbc, ledgerStatements),
                new ReservationRows(jdbc, ledgerStatements, dialect), journal, administration, clock,
                new HotStoreClaim(jdbc, ledgerStatements, dialect, clock,
                        tier.journal() == TierProperties.Journal.DATABASE));
        return () -> ledger;
    }

    /**
     * Applies the hot store's events. With the synchronous journal every event is applied before it
     * is acknowledged, so the database can fence the sales of a hot store that lost its SKU; with
     * Kafka the events arrive already acknowledged and must be applied (the full tier's takeover
     * waits for the journal to drain instead).
     */
    @Bean
    EventApplier journalApplier(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements ledgerStatements,
            SqlDialect dialect, Journal journal, TierProperties tier) {
        ReservationRows reservations = new ReservationRows(jdbc, ledgerStatements, dialect);
        return new JournalApplier(transactions, new AppliedRows(jdbc, ledgerStatements, dialect, reservations),
                new BucketRows(jdbc, ledgerStatements), journal, tier.journal() == TierProperties.Journal.DATABASE);
    }

    @Bean
    HotStoreSource hotStoreSource(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements ledgerStatements,
            SqlDialect dialect, SkuRows skuRows) {
        return new HotStoreSource(transactions, jdbc, ledgerStatements, skuRows,
                new ReservationRows(jdbc, ledgerStatements, dialect), dialect);
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
    DurableJournal synchronousJournal(EventApplier journalApplier, ReservationProperties properties) {
        return new SynchronousJournal(journalApplier, 2_000, properties.coalescing().waitMax());
    }
}
