package io.stockguard.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;

/**
 * Runs one contender on one scenario with a number of client threads. Every client takes the next
 * request of the shared plan, so each run sends the same requests in the same order; the run ends
 * when the plan is done or the time limit passes.
 */
final class Runner {

    /** Latencies above a minute are recorded as a minute. */
    private static final long LATENCY_MAX_NANOS = Duration.ofMinutes(1).toNanos();
    /**
     * A stock query sent this long after a refusal said its SKU was sold out must show it sold out:
     * every instance is to see a sell-out within 100 ms.
     */
    static final Duration GHOST_AFTER = Duration.ofMillis(100);
    /** Stock queries per client whose "available" answer is kept to be judged; past it they are not judged. */
    private static final int JUDGED_READS_MAX = 1_000_000;

    private final Duration timeLimit;
    private final WarmUp warmUp;
    private final String runId;
    private final Profiler profiler;
    private final AtomicInteger runs = new AtomicInteger();

    /**
     * @param warmUp how each contender runs, unmeasured, before its measured run, so that every
     *     contender is measured with warm JIT-compiled code and warm connections
     * @param profiler records the clients' part of each measured run (not the warm-up, loading or counting)
     */
    Runner(Duration timeLimit, WarmUp warmUp, String runId, Profiler profiler) {
        this.timeLimit = timeLimit;
        this.warmUp = warmUp;
        this.runId = runId;
        this.profiler = profiler;
    }

    /** What one client thread saw. */
    private static final class ClientTally {
        final Histogram reservations = new Histogram(LATENCY_MAX_NANOS, 3);
        final Histogram reads = new Histogram(LATENCY_MAX_NANOS, 3);
        long sold;
        long soldOut;
        long gaveUp;
        long errors;
        long retries;
        long lastSaleNanos;
        Exception firstError;
        /** Per query that showed units available: when it was sent, and its SKU's index. */
        long[] availableSentAt = new long[1024];
        int[] availableSku = new int[1024];
        int availableReads;

        void showedAvailable(long sentAt, int sku) {
            if (availableReads == JUDGED_READS_MAX) {
                return;
            }
            if (availableReads == availableSentAt.length) {
                availableSentAt = java.util.Arrays.copyOf(availableSentAt, availableReads * 2);
                availableSku = java.util.Arrays.copyOf(availableSku, availableReads * 2);
            }
            availableSentAt[availableReads] = sentAt;
            availableSku[availableReads++] = sku;
        }
    }

    /** @param round the repetition, for the profile's name */
    RunResult run(Scenario scenario, Contender contender, int clients, int round) throws Exception {
        WarmUp.Done warm = warmUp.run(() -> measure(scenario, contender, clients, warmUp.round(), null));
        if (warm.rounds() > 1 || !warm.settled()) {
            System.out.printf("  (%s, %d clients: warmed up in %d rounds of %d s; the compiler %s)%n", contender.name(),
                    clients, warm.rounds(), warmUp.round().toSeconds(), warm.lastCompileMillis() < 0
                            ? "time is not measured by this JVM" : warm.settled() ? "settled"
                                    : "still worked " + warm.lastCompileMillis() + " ms in the last");
        }
        return measure(scenario, contender, clients, timeLimit,
                scenario.name() + "-" + contender.name() + "-" + clients + "-" + round);
    }

    /** @param profileName the name of the run's profile, null for a warm-up */
    private RunResult measure(Scenario scenario, Contender contender, int clients, Duration timeLimit,
            String profileName) throws Exception {
        Catalogue catalogue = scenario.catalogue();
        contender.load(catalogue);
        int[] plan = scenario.plan();
        AtomicInteger next = new AtomicInteger();
        AtomicLongArray soldOutBySku = new AtomicLongArray(catalogue.size());
        // Per SKU, when the first refusal for want of stock was answered (Long.MAX_VALUE: none).
        AtomicLongArray firstSoldOut = new AtomicLongArray(catalogue.size());
        for (int s = 0; s < catalogue.size(); s++) {
            firstSoldOut.set(s, Long.MAX_VALUE);
        }
        // Order ids unique across runs and short enough for every store's limit (64 characters).
        String orderPrefix = runId + "-" + runs.incrementAndGet() + "-";
        List<ClientTally> tallies = new ArrayList<>();
        long started;
        double seconds;
        try (Profiler.Profile profile = profileName == null ? () -> { } : profiler.record(profileName)) {
            long deadline = System.nanoTime() + timeLimit.toNanos();
            started = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            List<Future<ClientTally>> futures = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                futures.add(pool.submit(() -> client(contender, catalogue, plan, next, deadline, orderPrefix,
                        soldOutBySku, firstSoldOut)));
            }
            try {
                for (Future<ClientTally> future : futures) {
                    tallies.add(future.get());
                }
            } finally {
                pool.shutdownNow();
                pool.awaitTermination(1, TimeUnit.MINUTES);
            }
            seconds = (System.nanoTime() - started) / 1e9;
        }
        return summarise(scenario, contender, clients, catalogue, tallies, soldOutBySku, firstSoldOut, started,
                seconds, next.get() < plan.length);
    }

    private static ClientTally client(Contender contender, Catalogue catalogue, int[] plan, AtomicInteger next,
            long deadline, String orderPrefix, AtomicLongArray soldOutBySku, AtomicLongArray firstSoldOut)
            throws Exception {
        ClientTally tally = new ClientTally();
        try (Contender.Session session = contender.open()) {
            int i;
            while ((i = next.getAndIncrement()) < plan.length && System.nanoTime() < deadline) {
                int entry = plan[i];
                boolean read = entry < 0;
                int skuIndex = read ? -1 - entry : entry;
                String sku = catalogue.skus().get(skuIndex);
                long start = System.nanoTime();
                if (read) {
                    try {
                        if (session.read(sku) > 0) {
                            tally.showedAvailable(start, skuIndex);
                        }
                    } catch (Exception e) {
                        tally.errors++;
                        tally.firstError = tally.firstError == null ? e : tally.firstError;
                    }
                    tally.reads.recordValue(Math.min(System.nanoTime() - start, LATENCY_MAX_NANOS));
                    continue;
                }
                Contender.Attempt attempt;
                try {
                    attempt = session.reserve(sku, 1, orderPrefix + i);
                } catch (Exception e) {
                    attempt = new Contender.Attempt(Contender.Outcome.ERROR, 0);
                    if (tally.firstError == null) {
                        tally.firstError = e;
                    }
                }
                long end = System.nanoTime();
                tally.reservations.recordValue(Math.min(end - start, LATENCY_MAX_NANOS));
                tally.retries += attempt.retries();
                switch (attempt.outcome()) {
                    case SOLD -> {
                        tally.sold++;
                        tally.lastSaleNanos = Math.max(tally.lastSaleNanos, end);
                    }
                    case SOLD_OUT -> {
                        tally.soldOut++;
                        soldOutBySku.incrementAndGet(entry);
                        firstSoldOut.accumulateAndGet(entry, end, Math::min);
                    }
                    case GAVE_UP -> tally.gaveUp++;
                    case ERROR -> tally.errors++;
                }
            }
        }
        return tally;
    }

    private static RunResult summarise(Scenario scenario, Contender contender, int clients, Catalogue catalogue,
            List<ClientTally> tallies, AtomicLongArray soldOutBySku, AtomicLongArray firstSoldOut, long started,
            double seconds, boolean stoppedEarly) throws Exception {
        Histogram reservations = new Histogram(LATENCY_MAX_NANOS, 3);
        Histogram reads = new Histogram(LATENCY_MAX_NANOS, 3);
        long sold = 0;
        long soldOut = 0;
        long gaveUp = 0;
        long errors = 0;
        long retries = 0;
        long lastSale = started;
        Exception firstError = null;
        for (ClientTally tally : tallies) {
            reservations.add(tally.reservations);
            reads.add(tally.reads);
            sold += tally.sold;
            soldOut += tally.soldOut;
            gaveUp += tally.gaveUp;
            errors += tally.errors;
            retries += tally.retries;
            lastSale = Math.max(lastSale, tally.lastSaleNanos);
            firstError = firstError == null ? tally.firstError : firstError;
        }
        if (firstError != null) {
            System.err.printf("  %s: %d errors, the first: %s%n", contender.name(), errors, firstError);
        }
        long[] remaining = contender.remaining(catalogue);
        long remainingTotal = 0;
        long falseSoldOuts = 0;
        for (int s = 0; s < remaining.length; s++) {
            remainingTotal += remaining[s];
            if (remaining[s] > 0) {
                falseSoldOuts += soldOutBySku.get(s);
            }
        }
        // A refusal of a SKU that still has stock at the end was false (no stock returns during a run):
        // queries after it that showed units were right. Only a SKU that sold out is judged.
        long ghostReads = 0;
        for (ClientTally tally : tallies) {
            for (int r = 0; r < tally.availableReads; r++) {
                int sku = tally.availableSku[r];
                long soldOutAt = firstSoldOut.get(sku);
                if (remaining[sku] == 0 && soldOutAt != Long.MAX_VALUE
                        && tally.availableSentAt[r] - soldOutAt > GHOST_AFTER.toNanos()) {
                    ghostReads++;
                }
            }
        }
        // A scenario of stock queries only has no reservation to count: its row counts the queries
        // instead (attempts/s is queries/s, the latencies are theirs), so reads compare with reservations.
        Histogram counted = scenario.readsOnly() ? reads : reservations;
        long attempts = counted.getTotalCount();
        double sellSeconds = Math.max((lastSale - started) / 1e9, 1e-9);
        return new RunResult(scenario.name(), contender.name(), contender.family().name().toLowerCase(), clients,
                attempts, sold, soldOut, gaveUp, errors, retries, reads.getTotalCount(), seconds, stoppedEarly,
                attempts / seconds, sold == 0 ? 0 : sold / sellSeconds, reads.getTotalCount() / seconds,
                millis(counted, 50), millis(counted, 99), millis(counted, 99.9), millis(reads, 99),
                Math.max(0, sold - catalogue.totalUnits()), catalogue.totalUnits() - remainingTotal - sold,
                falseSoldOuts, ghostReads, -1, List.of(attempts / seconds), List.of(sold == 0 ? 0.0 : sold / sellSeconds), "");
    }

    private static double millis(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile) / 1e6;
    }
}
