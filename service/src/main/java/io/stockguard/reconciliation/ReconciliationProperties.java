package io.stockguard.reconciliation;

import static io.stockguard.platform.SettingChecks.requireBetween;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The reconciliation probe ({@code stockguard.reconciliation.*}).
 *
 * @param enabled whether the probe may run on this instance
 * @param lease the probe's schedule runs on one instance at a time (a lease in the database); when
 *     that instance dies, another takes over after this long
 * @param hotInterval how often a hot or watched SKU is probed
 * @param elevatedInterval how often a SKU at WARN or above is probed
 * @param hotSkus how many of the busiest SKUs (by journal events since the last look) count as hot
 * @param watchList SKUs always probed at the hot cadence, busy or not
 * @param busiestScanEventsMax at most this many journal rows are counted per look for the busiest SKUs
 * @param sweepInterval how often the slow sweep over every SKU takes its next page
 * @param sweepBatch SKUs per page of the slow sweep
 * @param probesPerTickMax SKUs probed per tick at most (the rest wait for the next tick)
 * @param tick how often the schedule looks for due SKUs
 * @param levels drift thresholds, in percent of the SKU's total
 * @param throttleRatePerSecond the cluster-wide rate a SKU is throttled to when the probe throttles it
 * @param cleanProbesToClear clean probes in a row after which a throttle the probe set is lifted
 * @param autoHeal heal (drain, rebase, unfreeze) a SKU the probe froze, without waiting for a person
 * @param keepReadings how long drift readings are kept
 * @param ledgerCheckTimeout the longest one SKU's ledger check (a sum over its journal) may take; a
 *     SKU whose check takes longer is reported as not checked rather than holding the probe; at
 *     least 1 s shorter than {@code stockguard.database.socket-timeout} (checked at start)
 */
@Validated
@ConfigurationProperties("stockguard.reconciliation")
public record ReconciliationProperties(
        @DefaultValue("true") boolean enabled,
        @NotNull @DefaultValue("15s") Duration lease,
        @NotNull @DefaultValue("30s") Duration hotInterval,
        @NotNull @DefaultValue("10s") Duration elevatedInterval,
        @Min(0) @Max(10_000) @DefaultValue("100") int hotSkus,
        @NotNull @Size(max = 1_000) @DefaultValue("") List<String> watchList,
        @Min(1_000) @Max(10_000_000) @DefaultValue("200000") int busiestScanEventsMax,
        @NotNull @DefaultValue("10s") Duration sweepInterval,
        @Min(1) @Max(10_000) @DefaultValue("200") int sweepBatch,
        @Min(1) @Max(10_000) @DefaultValue("500") int probesPerTickMax,
        @NotNull @DefaultValue("1s") Duration tick,
        @Valid @NotNull @DefaultValue Levels levels,
        @Min(1) @Max(100_000) @DefaultValue("50") int throttleRatePerSecond,
        @Min(1) @Max(100) @DefaultValue("2") int cleanProbesToClear,
        @DefaultValue("false") boolean autoHeal,
        @NotNull @DefaultValue("7d") Duration keepReadings,
        @NotNull @DefaultValue("5s") Duration ledgerCheckTimeout) {

    public ReconciliationProperties {
        requireBetween("stockguard.reconciliation.tick", tick, Duration.ofMillis(50), Duration.ofMinutes(1));
        requireBetween("stockguard.reconciliation.hot-interval", hotInterval, tick, Duration.ofHours(1));
        requireBetween("stockguard.reconciliation.elevated-interval", elevatedInterval, tick, hotInterval);
        requireBetween("stockguard.reconciliation.sweep-interval", sweepInterval, tick, Duration.ofHours(1));
        requireBetween("stockguard.reconciliation.lease", lease,
                tick == null ? null : tick.multipliedBy(3), Duration.ofMinutes(10));
        requireBetween("stockguard.reconciliation.ledger-check-timeout", ledgerCheckTimeout,
                Duration.ofSeconds(1), Duration.ofMinutes(5));
        requireBetween("stockguard.reconciliation.keep-readings", keepReadings,
                Duration.ofHours(1), Duration.ofDays(400));
    }

    /**
     * Drift thresholds in percent of the SKU's total: at or above {@code warn} it warns, at or above
     * {@code throttle} it throttles, above {@code freeze} it freezes.
     *
     * @param warn drift, in percent of the SKU's total, at or above which the probe warns
     * @param throttle drift, in percent of the SKU's total, at or above which the probe throttles the SKU
     * @param freeze drift, in percent of the SKU's total, above which the probe freezes the SKU
     */
    public record Levels(
            @DecimalMin("0.0") @DefaultValue("0.5") double warn,
            @DecimalMin("0.0") @DefaultValue("1.0") double throttle,
            @DecimalMin("0.0") @DefaultValue("3.0") double freeze) {

        public Levels {
            if (!(warn <= throttle && throttle <= freeze)) {
                throw new IllegalArgumentException("stockguard.reconciliation.levels must satisfy warn <= throttle <= "
                        + "freeze, were " + warn + ", " + throttle + ", " + freeze);
            }
        }

        /** The level a drift of {@code percent} (absolute) reaches. */
        public DriftLevel of(double percent) {
            double drift = Math.abs(percent);
            if (drift > freeze) {
                return DriftLevel.FREEZE;
            }
            if (drift >= throttle) {
                return DriftLevel.THROTTLE;
            }
            return drift >= warn ? DriftLevel.WARN : DriftLevel.NONE;
        }
    }
}
