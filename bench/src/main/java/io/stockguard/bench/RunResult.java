package io.stockguard.bench;

import java.util.List;

/**
 * The measurements of one contender on one scenario at one concurrency.
 *
 * @param attemptsPerSecond reservation attempts answered per second, whatever the answer
 * @param soldPerSecond units sold per second while the stock lasted (first request to last sale)
 * @param oversoldUnits units sold beyond the stock that existed
 * @param unaccountedUnits units the store lost track of: (stock − remaining) − sold; non-zero means
 *     the store and the customers disagree (lost updates)
 * @param falseSoldOuts refusals of a SKU that still had stock when the run ended
 * @param ghostReads stock queries that showed units available although they were sent more than
 *     {@link Runner#GHOST_AFTER} after a refusal had said the SKU was sold out (no stock returns
 *     during a run, so such an answer is older than that): a product page still selling what is gone
 * @param percentOfCeiling attempts/s as a share of the bare Lua decrement in the same run, or -1
 * @param attemptsPerSecondRepeats attempts/s of every repetition, in the order run (the figures
 *     above are the median repetition's): their spread says how noisy the machine was
 * @param soldPerSecondRepeats sold/s of every repetition, in the order run
 * @param notes what the contender saw inside the run (batch sizes, paths taken, checks), may be empty
 */
public record RunResult(
        String scenario,
        String contender,
        String family,
        int clients,
        long attempts,
        long sold,
        long soldOut,
        long gaveUp,
        long errors,
        long retries,
        long reads,
        double seconds,
        boolean stoppedEarly,
        double attemptsPerSecond,
        double soldPerSecond,
        double readsPerSecond,
        double p50Millis,
        double p99Millis,
        double p999Millis,
        double readP99Millis,
        long oversoldUnits,
        long unaccountedUnits,
        long falseSoldOuts,
        long ghostReads,
        double percentOfCeiling,
        List<Double> attemptsPerSecondRepeats,
        List<Double> soldPerSecondRepeats,
        String notes) {

    public RunResult {
        attemptsPerSecondRepeats = List.copyOf(attemptsPerSecondRepeats);
        soldPerSecondRepeats = List.copyOf(soldPerSecondRepeats);
    }

    RunResult withPercentOfCeiling(double percent) {
        return new RunResult(scenario, contender, family, clients, attempts, sold, soldOut, gaveUp, errors, retries,
                reads, seconds, stoppedEarly, attemptsPerSecond, soldPerSecond, readsPerSecond, p50Millis, p99Millis,
                p999Millis, readP99Millis, oversoldUnits, unaccountedUnits, falseSoldOuts, ghostReads, percent,
                attemptsPerSecondRepeats, soldPerSecondRepeats, notes);
    }

    RunResult withNotes(String text) {
        return new RunResult(scenario, contender, family, clients, attempts, sold, soldOut, gaveUp, errors, retries,
                reads, seconds, stoppedEarly, attemptsPerSecond, soldPerSecond, readsPerSecond, p50Millis, p99Millis,
                p999Millis, readP99Millis, oversoldUnits, unaccountedUnits, falseSoldOuts, ghostReads, percentOfCeiling,
                attemptsPerSecondRepeats, soldPerSecondRepeats, text);
    }

    /** (slowest − fastest repetition) / median, in percent; 0 with one repetition. */
    public double spreadPercent() {
        if (attemptsPerSecondRepeats.size() < 2 || attemptsPerSecond <= 0) {
            return 0;
        }
        double min = attemptsPerSecondRepeats.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        double max = attemptsPerSecondRepeats.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        return 100 * (max - min) / attemptsPerSecond;
    }
}
