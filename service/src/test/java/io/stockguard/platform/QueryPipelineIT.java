package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.stockguard.testkit.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Statements sent together, on both dialects: queries come back to their own handlers, in order, with
 * their locks held; changes run in their place among them and are counted.
 */
class QueryPipelineIT {

    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void everyQueryGetsItsOwnRowsInOrderAndItsLocksHoldUntilTheTransactionEnds(TestDatabase.Kind kind) {
        TestDatabase database = TestDatabase.fresh(kind);
        try (HikariDataSource pool = (HikariDataSource) database.dataSource()) {
            JdbcTemplate jdbc = new JdbcTemplate(pool);
            jdbc.execute("CREATE TABLE item (id VARCHAR(10) PRIMARY KEY, qty INT NOT NULL)");
            jdbc.execute("CREATE TABLE note (item_id VARCHAR(10) NOT NULL, text VARCHAR(20) NOT NULL)");
            jdbc.update("INSERT INTO item VALUES ('a', 1), ('b', 2), ('c', 3), ('d', 4)");
            jdbc.update("INSERT INTO note VALUES ('b', 'second'), ('c', 'third'), ('z', 'other')");

            List<String> locked = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            List<Integer> largest = new ArrayList<>();
            List<String> none = new ArrayList<>();
            new TransactionTemplate(new DataSourceTransactionManager(pool)).executeWithoutResult(status -> {
                new QueryPipeline(jdbc, dialectOf(kind))
                        .add("SELECT id FROM item WHERE id IN (:ids) ORDER BY id FOR UPDATE",
                                Map.of("ids", List.of("a", "c")), rs -> { locked.add(rs.getString(1)); })
                        .add("SELECT text FROM note WHERE item_id IN (:ids) AND text <> :skip ORDER BY text",
                                Map.of("ids", List.of("b", "c", "d"), "skip", "nothing"),
                                rs -> { notes.add(rs.getString(1)); })
                        .add("SELECT id FROM item WHERE id = :id", Map.of("id", "none"), rs -> { none.add("?"); })
                        .add("SELECT MAX(qty) FROM item", Map.of(), rs -> { largest.add(rs.getInt(1)); })
                        .run();

                // Another transaction cannot change a row the pipeline locked, only the others.
                JdbcTemplate other = database.jdbc();
                other.execute(kind == TestDatabase.Kind.POSTGRESQL ? "SET lock_timeout = '300ms'"
                        : "SET SESSION innodb_lock_wait_timeout = 1");
                assertThatThrownBy(() -> new TransactionTemplate(new DataSourceTransactionManager(
                        other.getDataSource())).executeWithoutResult(s -> other.update(
                                "UPDATE item SET qty = 0 WHERE id = 'c'")))
                        .isInstanceOf(DataAccessException.class);
                ((HikariDataSource) other.getDataSource()).close();
            });
            assertThat(locked).containsExactly("a", "c");
            assertThat(notes).containsExactly("second", "third");
            assertThat(none).isEmpty();
            assertThat(largest).containsExactly(4);
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void aPipelineIsEmptyAfterItRunsAndTakesABoundedNumberOfQueries(TestDatabase.Kind kind) {
        TestDatabase database = TestDatabase.fresh(kind);
        try (HikariDataSource pool = (HikariDataSource) database.dataSource()) {
            JdbcTemplate jdbc = new JdbcTemplate(pool);
            QueryPipeline pipeline = new QueryPipeline(jdbc, dialectOf(kind));
            List<Integer> seen = new ArrayList<>();
            pipeline.add("SELECT 1", Map.of(), rs -> { seen.add(rs.getInt(1)); }).run();
            pipeline.add("SELECT 2", Map.of(), rs -> { seen.add(rs.getInt(1)); })
                    .add("SELECT 3", Map.of(), rs -> { seen.add(rs.getInt(1)); }).run();
            pipeline.run();
            assertThat(seen).containsExactly(1, 2, 3);

            for (int i = 0; i < 32; i++) {
                pipeline.add("SELECT 1", Map.of(), rs -> { });
            }
            assertThatThrownBy(() -> pipeline.add("SELECT 1", Map.of(), rs -> { }))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("at most 32");
        }
    }

    /**
     * Changes go with the queries, in order: a query after a change sees it; a change that changes
     * another number of rows than it must fails the run, and the transaction rolls back whole.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void changesRunInOrderWithTheQueriesAndAnUnexpectedCountRollsTheTransactionBack(TestDatabase.Kind kind) {
        TestDatabase database = TestDatabase.fresh(kind);
        try (HikariDataSource pool = (HikariDataSource) database.dataSource()) {
            JdbcTemplate jdbc = new JdbcTemplate(pool);
            jdbc.execute("CREATE TABLE counter (name VARCHAR(10) PRIMARY KEY, n INT NOT NULL)");
            jdbc.update("INSERT INTO counter VALUES ('a', 1), ('b', 1)");
            TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(pool));

            List<Integer> seen = new ArrayList<>();
            transactions.executeWithoutResult(status -> new QueryPipeline(jdbc, dialectOf(kind))
                    .add("SELECT n FROM counter WHERE name = :name", Map.of("name", "a"), rs -> { seen.add(rs.getInt(1)); })
                    .change("UPDATE counter SET n = n + :by WHERE name = :name", Map.of("by", 5, "name", "a"), 1)
                    .add("SELECT n FROM counter WHERE name = :name", Map.of("name", "a"), rs -> { seen.add(rs.getInt(1)); })
                    .change("UPDATE counter SET n = n + 1", Map.of(), 2)
                    .run());
            assertThat(seen).containsExactly(1, 6);
            assertThat(jdbc.queryForList("SELECT n FROM counter ORDER BY name", Integer.class)).containsExactly(7, 2);

            assertThatThrownBy(() -> transactions.executeWithoutResult(status -> new QueryPipeline(jdbc, dialectOf(kind))
                    .change("UPDATE counter SET n = 100 WHERE name = :name", Map.of("name", "a"), 1)
                    .change("UPDATE counter SET n = 100 WHERE name = :name", Map.of("name", "nobody"), 1)
                    .run()))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("was to change 1 rows and changed 0");
            assertThat(jdbc.queryForList("SELECT n FROM counter ORDER BY name", Integer.class))
                    .as("the first change rolled back with the second").containsExactly(7, 2);
            assertThatThrownBy(() -> new QueryPipeline(jdbc, dialectOf(kind)).change("UPDATE counter SET n = 0",
                    Map.of(), -1)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** An array parameter (PostgreSQL) is bound whole: one statement writes a row per element. */
    @Test
    void anArrayParameterWritesOneRowPerElementInOneStatement() {
        TestDatabase database = TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL);
        try (HikariDataSource pool = (HikariDataSource) database.dataSource()) {
            JdbcTemplate jdbc = new JdbcTemplate(pool);
            jdbc.execute("CREATE TABLE blob (n BIGINT PRIMARY KEY, body BYTEA NOT NULL)");
            byte[][] bodies = {{1, 2}, {}, {3}};
            new QueryPipeline(jdbc, SqlDialect.POSTGRESQL)
                    .change("INSERT INTO blob (n, body) SELECT b.n + :base, b.body "
                            + "FROM unnest(CAST(:bodies AS bytea[])) WITH ORDINALITY AS b(body, n)",
                            Map.of("base", 10, "bodies", new QueryPipeline.SqlArray("bytea", bodies)), 3)
                    .add("SELECT COUNT(*) FROM blob", Map.of(), rs -> { })
                    .run();
            List<byte[]> stored = jdbc.queryForList("SELECT body FROM blob ORDER BY n", byte[].class);
            assertThat(jdbc.queryForList("SELECT n FROM blob ORDER BY n", Long.class)).containsExactly(11L, 12L, 13L);
            assertThat(stored).containsExactly(bodies);
        }
    }

    private static SqlDialect dialectOf(TestDatabase.Kind kind) {
        return kind == TestDatabase.Kind.POSTGRESQL ? SqlDialect.POSTGRESQL : SqlDialect.MYSQL;
    }
}
