package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SqlStatementsTest {

    @Test
    void splitsNamedStatementsAndDropsCommentsAndTheSemicolon() {
        var parsed = SqlStatements.parse("""
                -- header comment
                -- name: first
                -- why this statement exists
                SELECT 1
                FROM dual;

                -- name: second
                UPDATE t SET a = 1;
                """);
        assertThat(parsed).containsEntry("first", "SELECT 1\nFROM dual").containsEntry("second", "UPDATE t SET a = 1");
    }

    @Test
    void refusesDuplicateOrEmptyStatements() {
        assertThatThrownBy(() -> SqlStatements.parse("-- name: a\nSELECT 1;\n-- name: a\nSELECT 2;"))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> SqlStatements.parse("-- name: a\n-- nothing\n"))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void everyDialectHasEveryLedgerStatement() {
        for (SqlDialect dialect : SqlDialect.values()) {
            SqlStatements ledger = SqlStatements.load("ledger", dialect);
            for (String name : new String[] {"applySelling", "apply", "lockBuckets", "insertReservation", "insertSku",
                    "insertStockRequest", "transition", "due"}) {
                assertThat(ledger.get(name)).as(dialect + " " + name).isNotBlank();
            }
            assertThat(SqlStatements.load("audit", dialect).get("find")).isNotBlank();
        }
    }

    @Test
    void detectsTheDialectFromTheProductName() {
        assertThat(SqlDialect.ofProductName("PostgreSQL")).isEqualTo(SqlDialect.POSTGRESQL);
        assertThat(SqlDialect.ofProductName("MariaDB")).isEqualTo(SqlDialect.MYSQL);
        assertThat(SqlDialect.ofProductName("MySQL")).isEqualTo(SqlDialect.MYSQL);
        assertThatThrownBy(() -> SqlDialect.ofProductName("Oracle")).isInstanceOf(IllegalStateException.class);
    }
}
