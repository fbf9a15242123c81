package io.stockguard.platform;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Background work run on the shared scheduler every {@code interval} (after the previous round
 * ends, so rounds never overlap), started and stopped with the application. A round that throws
 * is the subclass's to catch: the scheduler stops a task whose round escapes with an exception.
 *
 * <p>Work that must go on while a store fails gets a thread of its own instead: the shared
 * scheduler's few threads can all be waiting on the failing store (a paused database holds every
 * sweep that queries it), and the work that watches for that failure would wait with them.
 */
public abstract class PeriodicWork implements SmartLifecycle {

    private final TaskScheduler scheduler;
    private final Duration interval;
    /** The work's own thread, when it has one: shut down with it. */
    private final ThreadPoolTaskScheduler ownThread;
    private volatile ScheduledFuture<?> task;

    protected PeriodicWork(TaskScheduler scheduler, Duration interval) {
        this(scheduler, interval, null);
    }

    /** Work on a thread of its own, named {@code threadName}. */
    protected PeriodicWork(String threadName, Duration interval) {
        this(ownThread(threadName), interval);
    }

    private PeriodicWork(ThreadPoolTaskScheduler ownThread, Duration interval) {
        this(ownThread, interval, ownThread);
    }

    private PeriodicWork(TaskScheduler scheduler, Duration interval, ThreadPoolTaskScheduler ownThread) {
        this.scheduler = scheduler;
        this.interval = interval;
        this.ownThread = ownThread;
    }

    private static ThreadPoolTaskScheduler ownThread(String name) {
        ThreadPoolTaskScheduler thread = new ThreadPoolTaskScheduler();
        thread.setPoolSize(1);
        thread.setThreadNamePrefix(name + "-");
        thread.setDaemon(true);
        thread.initialize();
        return thread;
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
        if (ownThread != null) {
            ownThread.shutdown();
        }
    }

    @Override
    public boolean isRunning() {
        return task != null;
    }
}
