package io.stockguard.journal.jdbc;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.journal.JournalBacklog;
import io.stockguard.journal.JournalProgress;
import io.stockguard.platform.PeriodicWork;
import io.stockguard.platform.SqlStatements;
import io.stockguard.stock.SkuId;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * How far the ledger tables are behind the appended journal: the last entry's number minus the
 * last applied (both kept in {@code journal_mark}, so every instance reads the same). A mark is
 * the last entry's number, global rather than per SKU: entries are numbered in commit order, so
 * once the applied number reaches it, everything journaled for any SKU before the mark is applied.
 *
 * <p>Measured on a thread of its own for the backlog gauge and the degrade decision, with
 * hysteresis, as the full tier does with Kafka's lag.
 */
final class AppendedJournalProgress extends PeriodicWork implements JournalProgress {

    private static final Logger log = LoggerFactory.getLogger(AppendedJournalProgress.class);
    /** Entries behind over which new reservations are throttled, and under which they no longer are. */
    static final long DEGRADE_ABOVE = 100_000;
    static final long RECOVER_BELOW = 50_000;
    /** Reservations admitted per second and instance while throttled. */
    static final int THROTTLED_RESERVATIONS_PER_SECOND = 200;
    static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);
    /** How often a wait for the applier reads the marks again. */
    private static final Duration MARKS_POLL = Duration.ofMillis(10);

    private final JdbcTemplate jdbc;
    private final SqlStatements sql;
    private final JournalBacklog backlog;

    AppendedJournalProgress(JdbcTemplate jdbc, SqlStatements sql, MeterRegistry meters,
            ApplicationEventPublisher events) {
        super("stockguard-journal-backlog", CHECK_INTERVAL);
        this.jdbc = jdbc;
        this.sql = sql;
        this.backlog = new JournalBacklog("journal entries", DEGRADE_ABOVE, RECOVER_BELOW,
                THROTTLED_RESERVATIONS_PER_SECOND, meters, events);
    }

    /** An entry is acknowledged before the applier brings the ledger tables up to date. */
    @Override
    public boolean behind() {
        return true;
    }

    /** The append refuses a hot store that was taken over (see AppendFence): hand-overs need no delay. */
    @Override
    public boolean fencesAtAppend() {
        return true;
    }

    @Override
    public boolean backlogged() {
        return backlog.backlogged();
    }

    @Override
    public boolean admitReservation() {
        return backlog.admitReservation();
    }

    @Override
    public long backlog() {
        return backlog.backlog();
    }

    @Override
    public long mark(SkuId sku) {
        return marks().appended();
    }

    @Override
    public boolean applied(SkuId sku, long mark) {
        return marks().applied() >= mark;
    }

    /** As the default, reading the marks more often: the applier is usually milliseconds behind. */
    @Override
    public boolean awaitApplied(SkuId sku, Duration max) {
        return awaitAllApplied(max);
    }

    @Override
    public boolean awaitAllApplied(Duration max) {
        return JournalProgress.await(max, MARKS_POLL, () -> marks().appended(), mark -> marks().applied() >= mark);
    }

    private JournalMarks marks() {
        return JournalMarks.read(jdbc, sql);
    }

    @Override
    protected void runOnce() {
        try {
            backlog.measured(marks().backlog());
        } catch (RuntimeException e) {
            log.debug("measuring the journal backlog failed: {}", e.toString());
        }
    }
}
