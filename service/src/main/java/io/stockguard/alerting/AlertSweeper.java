package io.stockguard.alerting;

import io.stockguard.platform.PeriodicWork;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.TaskScheduler;

/** Keeps the alert tables bounded: deletes alerts older than the retention, in batches. */
final class AlertSweeper extends PeriodicWork {

    /** Batches per sweep: a backlog of old rows is worked off over several sweeps, not in one long run. */
    static final int BATCHES_PER_SWEEP_MAX = 100;
    private static final Logger log = LoggerFactory.getLogger(AlertSweeper.class);

    private final AlertStore store;
    private final AlertingProperties.Retention retention;
    private final Clock clock;

    AlertSweeper(AlertStore store, AlertingProperties.Retention retention, TaskScheduler scheduler, Clock clock) {
        super(scheduler, retention.sweepInterval());
        this.store = store;
        this.retention = retention;
        this.clock = clock;
    }

    /** Deletes up to {@value #BATCHES_PER_SWEEP_MAX} batches of old alerts; returns how many went. */
    int sweep() {
        int deleted = 0;
        try {
            for (int batch = 0; batch < BATCHES_PER_SWEEP_MAX; batch++) {
                int gone = store.deleteRaisedBefore(clock.instant().minus(retention.maxAge()), retention.batchSize());
                deleted += gone;
                if (gone < retention.batchSize()) {
                    break;
                }
            }
        } catch (RuntimeException e) {
            log.warn("cannot sweep old alerts: {}", e.toString());
        }
        return deleted;
    }

    @Override
    protected void runOnce() {
        sweep();
    }
}
