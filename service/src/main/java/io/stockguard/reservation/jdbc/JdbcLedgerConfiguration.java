package io.stockguard.reservation.jdbc;

import io.stockguard.audit.AuditLog;
import io.stockguard.journal.Journal;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reservation.ReservationProperties;
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
    StockAdministration stockAdministration(TransactionTemplate transactions, JdbcTemplate jdbc,
            SqlStatements ledgerStatements, SqlDialect dialect, Journal journal, AuditLog audit, Clock clock,
            ReservationProperties properties) {
        return new StockAdministration(transactions, jdbc, ledgerStatements, dialect,
                skuRows(jdbc, ledgerStatements, dialect, properties), new BucketRows(jdbc, ledgerStatements), journal,
                audit, clock);
    }

    @Bean
    JdbcStockLedger jdbcStockLedger(TransactionTemplate transactions, JdbcTemplate jdbc, SqlStatements ledgerStatements,
            SqlDialect dialect, Journal journal, StockAdministration administration, Clock clock,
            ReservationProperties properties) {
        return new JdbcStockLedger(transactions, skuRows(jdbc, ledgerStatements, dialect, properties),
                new BucketRows(jdbc, ledgerStatements), new ReservationRows(jdbc, ledgerStatements, dialect), journal,
                administration, clock);
    }

    private static SkuRows skuRows(JdbcTemplate jdbc, SqlStatements sql, SqlDialect dialect,
            ReservationProperties properties) {
        return new SkuRows(jdbc, sql, dialect, properties.bucketCacheSize());
    }
}
