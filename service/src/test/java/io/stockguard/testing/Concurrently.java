package io.stockguard.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs a load's tasks on a fixed number of threads and returns when every one has finished. */
public final class Concurrently {

    private Concurrently() {
    }

    /** Runs every task on {@code threads} threads; the first task that threw fails the caller. */
    public static void run(List<Callable<Void>> tasks, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (Future<Void> future : pool.invokeAll(tasks)) {
                future.get();
            }
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        }
    }
}
