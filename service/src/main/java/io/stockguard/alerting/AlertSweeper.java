package io.stockguard.alerting;

import java.time.Clock;
import java.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.TaskScheduler;

/** Keeps the alert tables bounded: deletes alerts older than the retention, in batches. */
final class AlertSweeper implements SmartLifecycle {

    /** Batches per sweep: a backlog of old rows is worked off over several sweeps, not in one long run. */
    static final int BATCHES_PER_SWEEP_MAX = 100;
    private static final Logger log = LoggerFactory.getLogger(AlertSweeper.class);

    private final AlertStore store;
    private final AlertingProperties.Retention retention;
    private final TaskScheduler scheduler;
    private final Clock clock;
    private volatile ScheduledFuture<?> task;

    AlertSweeper(AlertStore store, AlertingProperties.Retention retention, TaskScheduler scheduler, Clock clock) {
        this.store = store;
        this.retention = retention;
        this.scheduler = scheduler;
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
    public void start() {
        task = scheduler.scheduleWithFixedDelay(this::sweep, retention.sweepInterval());
    }

    @Override
    public void stop() {
        ScheduledFuture<?> current = task;
        if (current != null) {
            current.cancel(false);
        }
        task = null;
    }

    @Override
    public boolean isRunning() {
        return task != null;
    }
}
