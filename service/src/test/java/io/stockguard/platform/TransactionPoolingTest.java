package io.stockguard.platform;

import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.DefaultTransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * What each transaction and each statement outside one is given behind a transaction pooler (the
 * logic alone; {@code StatementTimeoutBehindAPoolerIT} runs it through a real PgBouncer).
 */
class TransactionPoolingTest {

    private final DataSource dataSource = mock(DataSource.class);
    private final Connection connection = mock(Connection.class);
    private final Statement statement = mock(Statement.class);

    @AfterEach
    void noTransactionLeftOnThisThread() {
        TransactionSynchronizationManager.setActualTransactionActive(false);
    }

    @Test
    void everyTransactionOpensWithItsOwnStatementTimeout() throws SQLException {
        when(dataSource.getConnection()).thenReturn(connection);
        when(connection.getAutoCommit()).thenReturn(true);
        when(connection.createStatement()).thenReturn(statement);
        TransactionPooling.BoundedTransactions transactions = new TransactionPooling.BoundedTransactions(dataSource,
                1_500);

        TransactionStatus status = transactions.getTransaction(new DefaultTransactionDefinition());
        transactions.commit(status);

        InOrder order = inOrder(connection, statement);
        order.verify(connection).setAutoCommit(false);
        order.verify(statement).execute("SET LOCAL statement_timeout = 1500");
        order.verify(connection).commit();
    }

    @Test
    void aStatementOutsideATransactionGetsTheDriversTimeoutAndOneInsideDoesNot() throws SQLException {
        TransactionPooling.BoundedOutsideTransactions jdbc = new TransactionPooling.BoundedOutsideTransactions(
                dataSource, 2);

        jdbc.applyStatementSettings(statement);
        verify(statement).setQueryTimeout(2);

        Statement inside = mock(Statement.class);
        TransactionSynchronizationManager.setActualTransactionActive(true);
        jdbc.applyStatementSettings(inside);
        verify(inside, never()).setQueryTimeout(anyInt());
    }

    @Test
    void aTimeoutTheTemplateWasGivenIsKept() throws SQLException {
        TransactionPooling.BoundedOutsideTransactions jdbc = new TransactionPooling.BoundedOutsideTransactions(
                dataSource, 2);
        when(statement.getQueryTimeout()).thenReturn(30);

        jdbc.applyStatementSettings(statement);
        verify(statement, never()).setQueryTimeout(2);
    }
}
