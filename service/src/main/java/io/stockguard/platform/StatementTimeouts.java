package io.stockguard.platform;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Puts a bound on every statement, in the way each database does it cheaply. PostgreSQL gets a
 * server-side {@code statement_timeout} on every pooled connection: its driver implements JDBC
 * query timeouts with one shared timer that every statement schedules on and purges, which under
 * load becomes a lock all requests queue on. MySQL and MariaDB get the JDBC query timeout, which
 * their drivers send with the statement.
 */
@Component
class StatementTimeouts implements BeanPostProcessor {

    private final ObjectProvider<DatabaseProperties> properties;

    StatementTimeouts(ObjectProvider<DatabaseProperties> properties) {
        this.properties = properties;
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (bean instanceof HikariDataSource pool && isPostgres(pool) && pool.getConnectionInitSql() == null) {
            pool.setConnectionInitSql("SET statement_timeout = " + timeoutMillis());
        }
        if (bean instanceof JdbcTemplate jdbc && !(jdbc.getDataSource() instanceof HikariDataSource pool
                && isPostgres(pool))) {
            jdbc.setQueryTimeout((int) Math.max(1, (timeoutMillis() + 999) / 1000));
        }
        return bean;
    }

    private long timeoutMillis() {
        return properties.getObject().statementTimeout().toMillis();
    }

    private static boolean isPostgres(HikariDataSource pool) {
        return pool.getJdbcUrl() != null && pool.getJdbcUrl().startsWith("jdbc:postgresql:");
    }
}
