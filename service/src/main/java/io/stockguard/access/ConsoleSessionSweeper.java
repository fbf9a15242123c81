package io.stockguard.access;

import io.stockguard.platform.PeriodicWork;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.TaskScheduler;

/**
 * Keeps the console session table bounded: deletes expired sessions, in batches. Every instance
 * sweeps; a session is refused as soon as it expires whether or not it has been swept yet, so the
 * sweep only reclaims space. Replaces Spring Session's own clean-up, which deletes every expired
 * row in one statement on a thread pool of its own.
 */
final class ConsoleSessionSweeper extends PeriodicWork {

    static final Duration SWEEP_INTERVAL = Duration.ofMinutes(1);
    static final int BATCH_SIZE = 1000;
    /** Batches per sweep: a backlog (say, after a flood of visits to the login page) goes over several sweeps. */
    static final int BATCHES_PER_SWEEP_MAX = 20;
    private static final Logger log = LoggerFactory.getLogger(ConsoleSessionSweeper.class);

    private final JdbcTemplate jdbc;
    private final String sweepStatement;
    private final Clock clock;

    /**
     * {@code clock} must be the one Spring Session stamps expiry times with, the system clock: a
     * sweep ahead of it would end live sessions.
     */
    ConsoleSessionSweeper(JdbcTemplate jdbc, SqlDialect dialect, TaskScheduler scheduler, Clock clock) {
        super(scheduler, SWEEP_INTERVAL);
        this.jdbc = jdbc;
        this.sweepStatement = SqlStatements.load("access", dialect).get("sweepConsoleSessions");
        this.clock = clock;
    }

    /** Deletes up to {@value #BATCHES_PER_SWEEP_MAX} batches of expired sessions; returns how many went. */
    int sweep() {
        int deleted = 0;
        try {
            for (int batch = 0; batch < BATCHES_PER_SWEEP_MAX; batch++) {
                int gone = jdbc.update(sweepStatement, clock.millis(), BATCH_SIZE);
                deleted += gone;
                if (gone < BATCH_SIZE) {
                    break;
                }
            }
        } catch (RuntimeException e) {
            log.warn("cannot sweep expired console sessions: {}", e.toString());
        }
        return deleted;
    }

    @Override
    protected void runOnce() {
        sweep();
    }
}
