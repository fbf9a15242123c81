package io.stockguard.platform;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.TaskScheduler;

/**
 * Background work run on the shared scheduler every {@code interval} (after the previous round
 * ends, so rounds never overlap), started and stopped with the application. A round that throws
 * is the subclass's to catch: the scheduler stops a task whose round escapes with an exception.
 */
public abstract class PeriodicWork implements SmartLifecycle {

    private final TaskScheduler scheduler;
    private final Duration interval;
    private volatile ScheduledFuture<?> task;

    protected PeriodicWork(TaskScheduler scheduler, Duration interval) {
        this.scheduler = scheduler;
        this.interval = interval;
    }

    /** One round of the work. */
    protected abstract void runOnce();

    @Override
    public void start() {
        task = scheduler.scheduleWithFixedDelay(this::runOnce, interval);
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
