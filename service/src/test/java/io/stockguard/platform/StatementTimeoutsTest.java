package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/** What each driver is given, before its pool starts: the database's own bound and the socket's. */
class StatementTimeoutsTest {

    private final StatementTimeouts timeouts = timeouts(DatabaseProperties.Pooler.NONE);

    private static StatementTimeouts timeouts(DatabaseProperties.Pooler pooler) {
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        beans.addBean("database", new DatabaseProperties(Duration.ofSeconds(5), Duration.ofMillis(7_500), pooler));
        return new StatementTimeouts(beans.getBeanProvider(DatabaseProperties.class));
    }

    @Test
    void postgresGetsTheStatementTimeoutOnEachConnectionAndTheSocketTimeoutInWholeSeconds() {
        HikariDataSource pool = pool("jdbc:postgresql://db:5432/stock");
        timeouts.postProcessBeforeInitialization(pool, "dataSource");
        assertThat(pool.getConnectionInitSql()).isEqualTo("SET statement_timeout = 5000");
        // A string: the drivers skip a property whose value is not one.
        assertThat(pool.getDataSourceProperties()).containsEntry("socketTimeout", "8");
    }

    @Test
    void aDeploymentsOwnConnectionInitSqlRunsAfterTheStatementTimeoutNotInsteadOfIt() {
        HikariDataSource pool = pool("jdbc:postgresql://db:5432/stock");
        pool.setConnectionInitSql("SET search_path = inventory");
        timeouts.postProcessBeforeInitialization(pool, "dataSource");
        assertThat(pool.getConnectionInitSql()).isEqualTo("SET statement_timeout = 5000; SET search_path = inventory");
    }

    @Test
    void behindATransactionPoolerNoConnectionGetsTheTimeoutForItsTransactionsSetTheirOwn() {
        HikariDataSource pool = pool("jdbc:postgresql://db:5432/stock");
        timeouts(DatabaseProperties.Pooler.TRANSACTION).postProcessBeforeInitialization(pool, "dataSource");
        assertThat(pool.getConnectionInitSql()).isNull();
        assertThat(pool.getDataSourceProperties()).containsEntry("socketTimeout", "8");
    }

    @Test
    void aJdbcTimeoutIsWholeSecondsRoundedUpAndNeverZero() {
        assertThat(StatementTimeouts.wholeSeconds(Duration.ofMillis(100))).isEqualTo(1);
        assertThat(StatementTimeouts.wholeSeconds(Duration.ofMillis(1_500))).isEqualTo(2);
        assertThat(StatementTimeouts.wholeSeconds(Duration.ofSeconds(5))).isEqualTo(5);
    }

    @Test
    void mariaDbAndMySqlGetTheSocketTimeoutInMilliseconds() {
        for (String url : new String[] {"jdbc:mariadb://db:3306/stock", "jdbc:mysql://db:3306/stock"}) {
            HikariDataSource pool = pool(url);
            timeouts.postProcessBeforeInitialization(pool, "dataSource");
            assertThat(pool.getDataSourceProperties()).as(url).containsEntry("socketTimeout", "7500");
            assertThat(pool.getConnectionInitSql()).as(url).isNull();
        }
    }

    @Test
    void aSocketTimeoutTheDeploymentSetIsKept() {
        HikariDataSource inProperties = pool("jdbc:postgresql://db:5432/stock");
        inProperties.addDataSourceProperty("socketTimeout", "60");
        timeouts.postProcessBeforeInitialization(inProperties, "dataSource");
        assertThat(inProperties.getDataSourceProperties()).containsEntry("socketTimeout", "60");

        HikariDataSource inUrl = pool("jdbc:mariadb://db:3306/stock?socketTimeout=60000");
        timeouts.postProcessBeforeInitialization(inUrl, "dataSource");
        assertThat(inUrl.getDataSourceProperties()).doesNotContainKey("socketTimeout");
    }

    private static HikariDataSource pool(String url) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(url);
        return pool;
    }
}
