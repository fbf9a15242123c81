package io.stockguard.journal.jdbc;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.stockguard.audit.AuditLog;
import io.stockguard.journal.AppendFence;
import io.stockguard.journal.DeadLetterReplay;
import io.stockguard.journal.DeadLetters;
import io.stockguard.journal.DurableJournal;
import io.stockguard.journal.EventApplier;
import io.stockguard.journal.EventCodec;
import io.stockguard.journal.EventDeadLetterReplay;
import io.stockguard.journal.JournalProgress;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import java.time.Clock;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Wires the standard tier's journal ({@code stockguard.ledger=redis} with the default
 * {@code stockguard.journal=database}): appended to a table before the answer, applied behind it.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "stockguard.ledger", havingValue = "redis")
class AppendedJournalConfiguration {

    /** Callers whose entries share one commit, at most. */
    private static final int ENTRIES_PER_COMMIT_MAX = 2_000;
    /**
     * How long a caller waits for a commit to take its entry. Longer than the database's own
     * statement timeout would be pointless; shorter than a commit under a flash sale's load would
     * answer "unavailable" to a healthy database.
     */
    private static final Duration APPEND_WAIT_MAX = Duration.ofSeconds(5);

    @Bean
    SqlStatements appendedJournalStatements(SqlDialect dialect) {
        return SqlStatements.load("journal", dialect);
    }

    @Bean
    @ConditionalOnProperty(name = "stockguard.journal", havingValue = "database", matchIfMissing = true)
    AppendedJournalApplier appendedJournalApplier(TransactionTemplate transactions, JdbcTemplate jdbc,
            SqlStatements appendedJournalStatements, EventApplier applier, DeadLetters deadLetters,
            ApplicationEventPublisher events, MeterRegistry meters, Clock clock) {
        return new AppendedJournalApplier(transactions, jdbc, appendedJournalStatements, applier, deadLetters, events,
                meters, clock);
    }

    @Bean
    @ConditionalOnProperty(name = "stockguard.journal", havingValue = "database", matchIfMissing = true)
    DurableJournal appendedJournal(TransactionTemplate transactions, JdbcTemplate jdbc,
            SqlStatements appendedJournalStatements, SqlDialect dialect, AppendFence fence, EventApplier applier,
            AppendedJournalApplier appendedJournalApplier, MeterRegistry meters, ObservationRegistry observations) {
        return new AppendedJournal(transactions, jdbc, appendedJournalStatements, dialect, fence, applier,
                ENTRIES_PER_COMMIT_MAX, APPEND_WAIT_MAX, appendedJournalApplier::wake, meters, observations);
    }

    @Bean
    @ConditionalOnProperty(name = "stockguard.journal", havingValue = "database", matchIfMissing = true)
    JournalProgress appendedJournalProgress(JdbcTemplate jdbc, SqlStatements appendedJournalStatements,
            MeterRegistry meters, ApplicationEventPublisher events) {
        return new AppendedJournalProgress(jdbc, appendedJournalStatements, meters, events);
    }

    @Bean
    @ConditionalOnProperty(name = "stockguard.journal", havingValue = "database", matchIfMissing = true)
    DeadLetterReplay appendedJournalDeadLetterReplay(DeadLetters deadLetters, EventApplier applier, AuditLog audit,
            TransactionTemplate transactions, Clock clock) {
        return new EventDeadLetterReplay(deadLetters, applier, new EventCodec(), audit, transactions, clock);
    }
}
