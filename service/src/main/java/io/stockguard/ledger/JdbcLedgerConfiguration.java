package io.stockguard.ledger;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.audit.AuditLog;
import io.stockguard.guard.SkuModeStore;
import io.stockguard.journal.AppendFence;
import io.stockguard.journal.EventApplier;
import io.stockguard.journal.Journal;
import io.stockguard.journal.JournalProgress;
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
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
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
        BatchReservations batches = new BatchReservations(transactions, skuRows, buckets, reservations,
                new BatchWrites(jdbc, ledgerStatements, dialect, buckets, reservations), journal, clock);
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
     * Applies the hot store's events. Journaled behind the answer, they arrive already acknowledged:
     * those of a hot store being drained are applied too (the hand-over waits for them).
     */
    @Bean
    EventApplier journalApplier(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements ledgerStatements,
            SqlDialect dialect, Journal journal, JournalProgress progress) {
        ReservationRows reservations = new ReservationRows(jdbc, ledgerStatements, dialect);
        return new JournalApplier(transactions, new AppliedRows(jdbc, ledgerStatements, dialect, reservations),
                new BucketRows(jdbc, ledgerStatements), journal, progress.behind(),
                new UnsettledLines(jdbc, ledgerStatements));
    }

    @Bean
    OwnershipStore ownershipStore(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements ledgerStatements,
            SqlDialect dialect, EventApplier applier) {
        return new JdbcOwnership(transactions, jdbc, ledgerStatements, dialect,
                new UnsettledLines(jdbc, ledgerStatements), applier);
    }

    @Bean
    HotStoreSource hotStoreSource(JdbcTemplate jdbc, SqlStatements ledgerStatements, SqlDialect dialect,
            SkuRows skuRows, TransactionTemplate transactions, Journal journal) {
        return new JdbcHotStoreSource(jdbc, ledgerStatements, skuRows,
                new ReservationRows(jdbc, ledgerStatements, dialect), transactions, journal);
    }

    /**
     * The embedded tier has no hot store, so nothing is journaled ahead of the database: its
     * ledger writes the journal in the transaction that changes the stock.
     */
    @Bean
    @ConditionalOnExpression("'${stockguard.journal:database}' == 'database' "
            + "and '${stockguard.ledger:database}' != 'redis'")
    JournalProgress immediateJournalProgress() {
        return JournalProgress.IMMEDIATE;
    }

    /** Who may still append to the standard tier's journal: the hot store that sells the SKU. */
    @Bean
    AppendFence appendFence(JdbcTemplate jdbc, SqlStatements ledgerStatements, SqlDialect dialect) {
        return new JdbcAppendFence(ledgerStatements, dialect,
                new AppliedRows(jdbc, ledgerStatements, dialect, new ReservationRows(jdbc, ledgerStatements, dialect)));
    }
}
