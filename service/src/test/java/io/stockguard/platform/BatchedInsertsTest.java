package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

/** Which pools have their batched inserts rewritten into multi-row statements by the driver. */
class BatchedInsertsTest {

    private final BatchedInserts inserts = new BatchedInserts();

    @Test
    void aPostgresPoolIsAskedToRewriteItsBatchedInserts() {
        HikariDataSource pool = pool("jdbc:postgresql://db:5432/stock");
        inserts.postProcessBeforeInitialization(pool, "dataSource");
        assertThat(pool.getDataSourceProperties()).containsEntry("reWriteBatchedInserts", "true");
    }

    @Test
    void aSettingTheDeploymentGaveIsKept() {
        HikariDataSource inUrl = pool("jdbc:postgresql://db:5432/stock?reWriteBatchedInserts=false");
        inserts.postProcessBeforeInitialization(inUrl, "dataSource");
        assertThat(inUrl.getDataSourceProperties()).doesNotContainKey("reWriteBatchedInserts");

        HikariDataSource inProperties = pool("jdbc:postgresql://db:5432/stock");
        inProperties.addDataSourceProperty("reWriteBatchedInserts", "false");
        inserts.postProcessBeforeInitialization(inProperties, "dataSource");
        assertThat(inProperties.getDataSourceProperties()).containsEntry("reWriteBatchedInserts", "false");
    }

    @Test
    void otherDriversAreLeftAlone() {
        HikariDataSource pool = pool("jdbc:mariadb://db:3306/stock");
        inserts.postProcessBeforeInitialization(pool, "dataSource");
        assertThat(pool.getDataSourceProperties()).isEmpty();
    }

    private static HikariDataSource pool(String url) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(url);
        return pool;
    }
}
