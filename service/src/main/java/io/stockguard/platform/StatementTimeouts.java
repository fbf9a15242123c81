package io.stockguard.platform;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Puts a bound on every statement, in the way each database does it cheaply. PostgreSQL gets a
 * server-side {@code statement_timeout} on every pooled connection: its driver implements JDBC
 * query timeouts with one shared timer that every statement schedules on and purges, which under
 * load becomes a lock all requests queue on. MySQL and MariaDB get the JDBC query timeout, which
 * their drivers send with the statement. Behind a transaction-pooling proxy a per-connection
 * setting would bound the wrong statements; {@link TransactionPooling} bounds each transaction there.
 *
 * <p>Either way it is the database that ends the statement, so a database that has stopped
 * answering (paused, or cut off without a reset) ends nothing: a request thread would wait in a
 * socket read for as long as the database is gone, and enough of them would leave no thread for
 * the calls Redis alone answers. So every driver also gets a socket timeout, the bound on one wait
 * for the database's next bytes; a statement it ends is answered 503 and its connection discarded.
 */
@Component
class StatementTimeouts implements BeanPostProcessor {

    /** The name all three drivers give it. */
    private static final String SOCKET_TIMEOUT = "socketTimeout";

    private final ObjectProvider<DatabaseProperties> properties;

    StatementTimeouts(ObjectProvider<DatabaseProperties> properties) {
        this.properties = properties;
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (bean instanceof HikariDataSource pool && DriverSettings.isPostgres(pool)
                && properties.getObject().pooler() == DatabaseProperties.Pooler.NONE) {
            // Before the deployment's own, if it has one: never skipped, and overridden only by a
            // statement_timeout the deployment sets there itself.
            String given = pool.getConnectionInitSql();
            String bound = "SET statement_timeout = " + timeoutMillis();
            pool.setConnectionInitSql(given == null || given.isBlank() ? bound : bound + "; " + given);
        }
        if (bean instanceof HikariDataSource pool && !DriverSettings.given(pool, SOCKET_TIMEOUT)) {
            long millis = properties.getObject().socketTimeout().toMillis();
            // PostgreSQL's driver counts this setting in whole seconds, MySQL's and MariaDB's in ms;
            // a string, as drivers read only the string-valued entries of their properties.
            pool.addDataSourceProperty(SOCKET_TIMEOUT,
                    Long.toString(DriverSettings.isPostgres(pool) ? (millis + 999) / 1000 : millis));
        }
        if (bean instanceof JdbcTemplate jdbc && !(jdbc.getDataSource() instanceof HikariDataSource pool
                && DriverSettings.isPostgres(pool))) {
            jdbc.setQueryTimeout(wholeSeconds(properties.getObject().statementTimeout()));
        }
        return bean;
    }

    /** A timeout as JDBC takes it: whole seconds, rounded up, at least 1 (0 would mean none). */
    static int wholeSeconds(Duration timeout) {
        return (int) Math.max(1, (timeout.toMillis() + 999) / 1000);
    }

    private long timeoutMillis() {
        return properties.getObject().statementTimeout().toMillis();
    }
}
