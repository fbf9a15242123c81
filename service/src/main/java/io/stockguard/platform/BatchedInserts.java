package io.stockguard.platform;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.stereotype.Component;

/**
 * PostgreSQL's driver sends a batch of inserts as one statement per row unless asked to rewrite it
 * into multi-row inserts ({@code reWriteBatchedInserts}); the journal applier inserts a batch's
 * reservations, lines and events as batches, so an external database (the embedded one always had
 * it) paid a round trip and an executor pass per row. Every PostgreSQL pool gets it, unless the
 * deployment set it itself, in the URL or the pool's properties. Nothing here reads the row counts
 * of a batched insert, which the rewrite no longer reports one by one.
 */
@Component
class BatchedInserts implements BeanPostProcessor {

    static final String REWRITE = "reWriteBatchedInserts";

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (bean instanceof HikariDataSource pool && DriverSettings.isPostgres(pool)
                && !DriverSettings.given(pool, REWRITE)) {
            // A string, as the driver reads only the string-valued entries of its properties.
            pool.addDataSourceProperty(REWRITE, "true");
        }
        return bean;
    }
}
