package io.stockguard.reservation.jdbc;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.audit.AuditLog;
import io.stockguard.journal.Journal;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reservation.ReservationProperties;
import io.stockguard.reservation.StockLedger;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/** Wires the database ledger: the hot path of the embedded / small tier ({@code stockguard.ledger=database}). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "stockguard.ledger", havingValue = "database", matchIfMissing = true)
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
}
