package io.stockguard.chaos.check;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.chaos.history.History;

/** Histories and assertions the rules' tests share. */
public final class Scenarios {

    private Scenarios() {
    }

    /**
     * A run with one healed fault in which every rule holds: a sale, a hold, a cancelled hold, a
     * reserve in doubt that landed, a cancel-first tombstone, a refusal, a sale with commit, a restock
     * and an adjustment in doubt that its retry settled. SKU-1 ends 110 = 104 + 4 + 2, SKU-2 45 = 42 + 1 + 2.
     */
    public static HistoryFixtures cleanRun() {
        return history()
                .sku("SKU-1", 100).sku("SKU-2", 50)
                .load("c9", "SKU-1", 0, 5_000, 200, "ok")
                .load("c9", "SKU-1", 5_000, 8_000, 200, "unavailable")
                .load("c9", "SKU-1", 8_000, 40_000, 200, "ok")
                .at(1_000)
                .reserve("c0", "o1", "SKU-1:2").created()
                .confirm("c0", "o1").ok()
                .reserve("c1", "o2", "SKU-1:3", "SKU-2:1").created()
                .reserve("c2", "o3", "SKU-2:4").created()
                .cancel("c2", "o3").ok()
                .reserve("c3", "o4", "SKU-1:1").info()
                .reserve("c3", "o4", "SKU-1:1").replayed()
                .cancel("c4", "o5").ok()
                .reserve("c4", "o5", "SKU-1:1").fail(409, "ORDER_CANCELLED")
                .reserve("c5", "o6", "SKU-2:100").fail(409, "INSUFFICIENT_STOCK")
                .sell("c6", "o7", "SKU-2:2").created()
                .restock("c7", "SKU-1", 10, "r1").ok()
                .adjust("c7", "SKU-2", -5, "a1").info()
                .adjust("c7", "SKU-2", -5, "a1").answered(200, true, null)
                .at(5_000).fault("kill-redis")
                .at(8_000).heal("kill-redis")
                .at(45_000)
                .finalOrder("o1", "CONFIRMED", "SKU-1:2")
                .finalOrder("o2", "RESERVED", "SKU-2:1", "SKU-1:3")
                .finalOrder("o3", "CANCELLED", "SKU-2:4")
                .finalOrder("o4", "RESERVED", "SKU-1:1")
                .finalOrder("o5", "CANCELLED")
                .finalUnknown("o6")
                .finalOrder("o7", "CONFIRMED", "SKU-2:2")
                .settled("SKU-1", 110, 104, 4, 2)
                .settled("SKU-2", 45, 42, 1, 2)
                .metrics("a", 3, 1)
                .metrics("b", 0, 0);
    }

    /** Checked as a run with faults planned (so the fault-free thresholds do not apply). */
    public static Verdict check(HistoryFixtures fixtures) {
        return check(fixtures.build());
    }

    public static Verdict check(History history) {
        return new Checker().check(history, CheckOptions.defaults(true));
    }

    public static void accepts(RuleResult result) {
        assertThat(result.passed()).as("%s: %s%n%s", result.rule(), result.summary(), result.counterExample()).isTrue();
        assertThat(result.violations()).isZero();
        assertThat(result.counterExample()).isEmpty();
    }

    /** The rule failed with {@code violations} violations, its first counter-example naming every fragment. */
    public static void rejects(RuleResult result, int violations, String... fragments) {
        assertThat(result.passed()).as("%s: %s", result.rule(), result.summary()).isFalse();
        assertThat(result.violations()).as(result.counterExample()).isEqualTo(violations);
        assertThat(result.counterExample()).contains(fragments);
    }
}
