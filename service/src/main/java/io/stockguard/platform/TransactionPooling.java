package io.stockguard.platform;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.jdbc.autoconfigure.JdbcProperties;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizers;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.jdbc.support.SQLExceptionTranslator;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The statement timeout behind a transaction-pooling proxy ({@code stockguard.database.pooler:
 * transaction}). Such a proxy lends a server connection for one transaction and then gives it to
 * another client, so the {@code SET statement_timeout} that {@link StatementTimeouts} makes once per
 * connection would land on whichever server connection was free at the time, and the proxy's reset
 * would clear it. Here the bound goes with the work instead: every transaction opens with
 * {@code SET LOCAL statement_timeout}, which lives exactly as long as the transaction, and a
 * statement outside a transaction gets the driver's query timeout (the driver then cancels it, and
 * the proxy forwards a cancel to the server connection running it).
 *
 * <p>Only on PostgreSQL: MariaDB's and MySQL's drivers send their timeout with each statement
 * already. Boot's own transaction manager and template step aside for these two beans; the
 * template keeps every {@code spring.jdbc.template.*} setting.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "stockguard.database", name = "pooler", havingValue = "transaction")
class TransactionPooling {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(TransactionPooling.class);

    @Bean
    JdbcTransactionManager transactionManager(DataSource dataSource, SqlDialect dialect, DatabaseProperties database,
            ObjectProvider<TransactionManagerCustomizers> customizers) {
        if (dialect != SqlDialect.POSTGRESQL) {
            log.info("stockguard.database.pooler=transaction changes nothing on {}: its driver sends the statement "
                    + "timeout with each statement", dialect);
        }
        JdbcTransactionManager transactions = dialect == SqlDialect.POSTGRESQL
                ? new BoundedTransactions(dataSource, database.statementTimeout().toMillis())
                : new JdbcTransactionManager(dataSource);
        customizers.ifAvailable(each -> each.customize(transactions));
        return transactions;
    }

    @Bean
    JdbcTemplate jdbcTemplate(DataSource dataSource, SqlDialect dialect, DatabaseProperties database,
            JdbcProperties properties, ObjectProvider<SQLExceptionTranslator> translators) {
        JdbcTemplate jdbc = dialect == SqlDialect.POSTGRESQL
                ? new BoundedOutsideTransactions(dataSource, StatementTimeouts.wholeSeconds(database.statementTimeout()))
                : new JdbcTemplate(dataSource);
        // What Boot's own template would have been given.
        JdbcProperties.Template template = properties.getTemplate();
        jdbc.setIgnoreWarnings(template.isIgnoreWarnings());
        jdbc.setFetchSize(template.getFetchSize());
        jdbc.setMaxRows(template.getMaxRows());
        if (template.getQueryTimeout() != null) {
            jdbc.setQueryTimeout((int) template.getQueryTimeout().getSeconds());
        }
        jdbc.setSkipResultsProcessing(template.isSkipResultsProcessing());
        jdbc.setSkipUndeclaredResults(template.isSkipUndeclaredResults());
        jdbc.setResultsMapCaseInsensitive(template.isResultsMapCaseInsensitive());
        translators.ifUnique(jdbc::setExceptionTranslator);
        return jdbc;
    }

    /** Opens every transaction with its own statement timeout, gone with the transaction. */
    static final class BoundedTransactions extends JdbcTransactionManager {

        private final String setLocal;

        BoundedTransactions(DataSource dataSource, long timeoutMillis) {
            super(dataSource);
            this.setLocal = "SET LOCAL statement_timeout = " + timeoutMillis;
        }

        @Override
        protected void prepareTransactionalConnection(Connection connection, TransactionDefinition definition)
                throws SQLException {
            super.prepareTransactionalConnection(connection, definition);
            try (Statement statement = connection.createStatement()) {
                statement.execute(setLocal);
            }
        }
    }

    /**
     * Gives the driver's query timeout to a statement outside a transaction, which no
     * {@code SET LOCAL} bounds. Inside one it adds nothing: PostgreSQL's driver keeps one timer for
     * every statement with a timeout, and on the reservation path that timer is a lock all requests
     * would queue on.
     */
    static final class BoundedOutsideTransactions extends JdbcTemplate {

        private final int timeoutSeconds;

        BoundedOutsideTransactions(DataSource dataSource, int timeoutSeconds) {
            super(dataSource);
            this.timeoutSeconds = timeoutSeconds;
        }

        @Override
        protected void applyStatementSettings(Statement statement) throws SQLException {
            super.applyStatementSettings(statement);
            if (!TransactionSynchronizationManager.isActualTransactionActive() && statement.getQueryTimeout() == 0) {
                statement.setQueryTimeout(timeoutSeconds);
            }
        }
    }
}
