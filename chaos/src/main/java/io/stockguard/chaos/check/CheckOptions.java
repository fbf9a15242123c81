package io.stockguard.chaos.check;

/**
 * What the checker needs to know about the run beyond its history.
 *
 * @param faultsPlanned whether the run planned faults; a run without them must meet {@link #noFault()}
 * @param clockSkewAllowanceMillis how much earlier than its TTL a hold may expire: the clock nemesis moves
 *     a service clock forward (up to 2 minutes), and that instance then expires holds early
 * @param defaultTtlSeconds the service's hold TTL, for a reserve that did not ask for one
 * @param liveness what a heal must be followed by
 * @param noFault what a run without faults must meet
 * @param inDoubtAfterHealMillis how long after a fault's heal an operation may still be without a
 *     definite answer (I9: 10 s)
 */
public record CheckOptions(boolean faultsPlanned, long clockSkewAllowanceMillis, long defaultTtlSeconds,
        LivenessWindow liveness, NoFaultThresholds noFault, long inDoubtAfterHealMillis) {

    /** I9: no operation stays in doubt longer than this after its fault heals. */
    public static final long IN_DOUBT_AFTER_HEAL_MILLIS = 10_000;

    /** The clock nemesis's largest forward jump. */
    public static final long CLOCK_NEMESIS_MAX_SKEW_MILLIS = 120_000;
    /** {@code stockguard.reservation.default-ttl}. */
    public static final long SERVICE_DEFAULT_TTL_SECONDS = 15 * 60;

    /**
     * Answers completed from {@code fromMillis} to {@code toMillis} after a heal must be at least
     * {@code minDefinite} definite; a window clipped below {@code minWindowMillis} is not judged.
     * The same share decides, second by second, when a fault counts as recovered.
     */
    public record LivenessWindow(long fromMillis, long toMillis, double minDefinite, long minWindowMillis) {
        public static final LivenessWindow DEFAULT = new LivenessWindow(10_000, 20_000, 0.90, 2_000);
    }

    /**
     * A fault-free run: its share of definite answers, and how often it may leave the hot store. By
     * default every answer is definite (I9: with no fault there is no 503 at all) and it never does.
     */
    public record NoFaultThresholds(double minDefinite, long maxDatabaseFallbacks, long maxTakeovers) {
        public static final NoFaultThresholds DEFAULT = new NoFaultThresholds(1.0, 0, 0);
    }

    /** The suite's defaults; the skew allowance covers the clock nemesis whether or not it ran. */
    public static CheckOptions defaults(boolean faultsPlanned) {
        return new CheckOptions(faultsPlanned, CLOCK_NEMESIS_MAX_SKEW_MILLIS, SERVICE_DEFAULT_TTL_SECONDS,
                LivenessWindow.DEFAULT, NoFaultThresholds.DEFAULT, IN_DOUBT_AFTER_HEAL_MILLIS);
    }

    public CheckOptions withClockSkewAllowanceMillis(long millis) {
        return new CheckOptions(faultsPlanned, millis, defaultTtlSeconds, liveness, noFault, inDoubtAfterHealMillis);
    }

    public CheckOptions withDefaultTtlSeconds(long seconds) {
        return new CheckOptions(faultsPlanned, clockSkewAllowanceMillis, seconds, liveness, noFault,
                inDoubtAfterHealMillis);
    }

    public CheckOptions withLiveness(LivenessWindow window) {
        return new CheckOptions(faultsPlanned, clockSkewAllowanceMillis, defaultTtlSeconds, window, noFault,
                inDoubtAfterHealMillis);
    }

    public CheckOptions withNoFault(NoFaultThresholds thresholds) {
        return new CheckOptions(faultsPlanned, clockSkewAllowanceMillis, defaultTtlSeconds, liveness, thresholds,
                inDoubtAfterHealMillis);
    }
}
