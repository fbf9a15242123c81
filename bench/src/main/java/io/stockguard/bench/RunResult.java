package io.stockguard.bench;

/**
 * The measurements of one contender on one scenario at one concurrency.
 *
 * @param attemptsPerSecond reservation attempts answered per second, whatever the answer
 * @param soldPerSecond units sold per second while the stock lasted (first request to last sale)
 * @param oversoldUnits units sold beyond the stock that existed
 * @param unaccountedUnits units the store lost track of: (stock − remaining) − sold; non-zero means
 *     the store and the customers disagree (lost updates)
 * @param falseSoldOuts refusals of a SKU that still had stock when the run ended
 * @param percentOfCeiling attempts/s as a share of the bare Lua decrement in the same run, or -1
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
        double percentOfCeiling) {

    RunResult withPercentOfCeiling(double percent) {
        return new RunResult(scenario, contender, family, clients, attempts, sold, soldOut, gaveUp, errors, retries,
                reads, seconds, stoppedEarly, attemptsPerSecond, soldPerSecond, readsPerSecond, p50Millis, p99Millis,
                p999Millis, readP99Millis, oversoldUnits, unaccountedUnits, falseSoldOuts, percent);
    }
}
