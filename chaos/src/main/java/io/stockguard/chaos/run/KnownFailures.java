package io.stockguard.chaos.run;

import io.stockguard.chaos.Tier;
import java.util.List;

/**
 * Rules the suite knows to fail today, per tier, each with the reason and the work that will fix
 * it. A known failure is still checked and reported; it only does not decide the exit code. The
 * list exists so that every *other* rule keeps deciding it while the fixes are under way; the
 * hot store ownership work empties it, and nothing else may add to it.
 */
public final class KnownFailures {

    /** A rule that fails on a tier, and why. */
    public record Known(Tier tier, String rule, String reason) {
    }

    private static final String OWNERSHIP = "hot store ownership is an implicit protocol (issue: Hot store ownership)";

    private static final List<Known> KNOWN = List.of(
            new Known(Tier.REDIS, "liveness", OWNERSHIP + ": SKUs are fenced and taken over by the database path "
                    + "under plain load, without any fault"),
            new Known(Tier.REDIS, "idempotency", OWNERSHIP + ": a reservation made half on the hot store and half "
                    + "on the database path is answered as a replay with a line missing"),
            new Known(Tier.REDIS, "no-lost-ack", OWNERSHIP + ": a line refused by the database after another was "
                    + "applied leaves the order cancelled with lines the client was told were refused"),
            new Known(Tier.REDIS, "not-applied-means-not-applied", OWNERSHIP + ": the same order as no-lost-ack"),
            new Known(Tier.KAFKA, "liveness", OWNERSHIP + ": never-loaded SKUs are never loaded, taken-over SKUs "
                    + "never come back: 503 UNAVAILABLE with no fault, and after a Redis outage"),
            new Known(Tier.KAFKA, "drift", OWNERSHIP + ": a SKU the database path took over is never rebuilt into "
                    + "the hot store, so the probe cannot compare it"));

    private KnownFailures() {
    }

    public static List<Known> all() {
        return KNOWN;
    }

    public static boolean isKnown(Tier tier, String rule) {
        return KNOWN.stream().anyMatch(k -> k.tier() == tier && k.rule().equals(rule));
    }
}
