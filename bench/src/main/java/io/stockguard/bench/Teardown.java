package io.stockguard.bench;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Closes what the bench started (services, Redis servers, Kafka brokers: processes that would
 * outlive the JVM) once, last added first: when the run ends or fails, or from a shutdown hook
 * when the bench is stopped (SIGTERM, Ctrl-C) in the middle of a run. The hook waits at most
 * {@link #HOOK_WAIT_MAX}, so a close that hangs cannot keep a stopped bench alive.
 */
final class Teardown implements AutoCloseable {

    private static final Duration HOOK_WAIT_MAX = Duration.ofSeconds(60);

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private final AtomicBoolean started = new AtomicBoolean();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook = new Thread(this::closeOnExit, "bench-shutdown");

    private Teardown() {
    }

    /** A teardown that also runs when the JVM is stopped. */
    static Teardown onExit() {
        Teardown teardown = new Teardown();
        Runtime.getRuntime().addShutdownHook(teardown.hook);
        return teardown;
    }

    /**
     * Adds a resource, closed before those added earlier (it may use them). Once the teardown has
     * begun, the resource is closed at once and the caller stopped, so nothing outlives the bench.
     */
    synchronized <T extends AutoCloseable> T add(T resource) throws Exception {
        if (started.get()) {
            resource.close();
            throw new IllegalStateException("the bench is stopping");
        }
        resources.push(resource);
        return resource;
    }

    /** Closes everything now; the JVM's exit then has nothing left to do. */
    @Override
    public void close() throws InterruptedException {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook has started (or will): closing below and in the hook is done once either way.
        }
        closeAll();
    }

    private void closeOnExit() {
        System.err.println("bench: stopping; closing the services and servers it started");
        // A daemon thread: should a close hang, the JVM still exits once the hook stops waiting.
        Thread closer = Thread.ofPlatform().daemon().name("bench-teardown").start(() -> {
            try {
                closeAll();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            if (!closer.join(HOOK_WAIT_MAX)) {
                System.err.println("bench: gave up waiting after " + HOOK_WAIT_MAX.toSeconds() + " s; servers may "
                        + "still be running");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The first caller closes every resource; a caller meanwhile waits for it to finish, within the limit. */
    private void closeAll() throws InterruptedException {
        if (!started.compareAndSet(false, true)) {
            finished.await(HOOK_WAIT_MAX.toSeconds(), TimeUnit.SECONDS);
            return;
        }
        try {
            AutoCloseable resource;
            while ((resource = next()) != null) {
                try {
                    resource.close();
                } catch (Exception e) {
                    // Go on: the other servers must still be stopped.
                    System.err.println("bench: closing " + resource + " failed: " + e);
                }
            }
        } finally {
            finished.countDown();
        }
    }

    private synchronized AutoCloseable next() {
        return resources.poll();
    }
}
