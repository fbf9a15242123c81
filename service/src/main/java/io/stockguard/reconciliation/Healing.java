package io.stockguard.reconciliation;

import io.stockguard.audit.AuditLog;
import io.stockguard.guard.ModeState;
import io.stockguard.guard.SkuGuards;
import io.stockguard.platform.Actor;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.ProblemCode;
import io.stockguard.platform.TraceId;
import io.stockguard.hotstore.HotStore;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Heal = drain and rebase: freeze the SKU, wait until everything the hot store journaled for it is
 * applied, set the hot store from the database under a new epoch, and unfreeze only if asked (and
 * only when the SKU is then in step). The database is the truth the hot store is reset to; what the
 * hot store had beyond it (a stray script's +4.2 %) is gone, and the before/after says how much.
 */
@Service
public class Healing {

    private final LedgerSide ledger;
    private final ObjectProvider<HotStore> hotStore;
    private final SkuGuards guards;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Readings readings;
    private final ReconciliationProperties settings;
    private final Clock clock;

    Healing(LedgerSide ledger, ObjectProvider<HotStore> hotStore, SkuGuards guards, AuditLog audit,
            TransactionTemplate transactions, Readings readings, ReconciliationProperties settings, Clock clock) {
        this.readings = readings;
        this.ledger = ledger;
        this.hotStore = hotStore;
        this.guards = guards;
        this.audit = audit;
        this.transactions = transactions;
        this.settings = settings;
        this.clock = clock;
    }

    /** What a heal did: the readings before and after, whether the hot store was rebased, the mode left. */
    /** @param ledgerSound the database's counters match its journal (a heal never unfreezes onto a broken ledger) */
    public record Healed(SkuId skuId, Reading before, Reading after, boolean rebased, String mode, boolean ledgerSound) {
    }

    public Healed heal(SkuId sku, String reason, boolean unfreeze, Actor actor, TraceId traceId) {
        String why = SkuGuards.requireReason(reason);
        HotStore hot = hotStore.getIfAvailable();
        if (hot == null) {
            throw new ApiProblemException(ProblemCode.HEAL_UNSUPPORTED, "This tier has no hot store to rebase: the "
                    + "database is the only ledger. A ledger mismatch needs a person to correct the counters (adjust).",
                    Map.of("skuId", sku.value()));
        }
        ModeState found = guards.mode(sku).orElseThrow(() -> ApiProblemException.unknownSku(sku.value()));
        Reading before;
        HotStore.Rebuilt rebuilt;
        Reading after;
        try {
            before = reading(sku, hot);
            if (found.mode() != SkuMode.FROZEN) {
                guards.freeze(sku, "heal: " + why, actor, traceId);
            }
            rebuilt = hot.rebuild(sku, "heal: " + why, new Caller(actor, traceId));
            after = reading(sku, hot);
        } catch (ApiProblemException e) {
            throw e;
        } catch (RuntimeException e) {
            // Redis or the database failed mid-way: the SKU stays frozen (selling nothing is safe).
            transactions.executeWithoutResult(tx -> audit.record(actor, "HEAL", "sku:" + sku, why, null,
                    Map.of("failed", String.valueOf(e.getMessage()), "mode", "FROZEN"), traceId));
            throw new ApiProblemException(ProblemCode.UNAVAILABLE, "The heal of " + sku + " could not finish ("
                    + e.getMessage() + "); the SKU stays frozen. Retry when Redis and the database answer.",
                    Map.of("skuId", sku.value()));
        }
        readings.add(before);
        readings.add(after);
        // A ledger that could not be checked in time counts as unsound: heal will not unfreeze onto it.
        boolean ledgerSound = ledger.ledgerMismatches(sku)
                .map(m -> m.stream().allMatch(LedgerSide.BucketMismatch::sound)).orElse(false);
        String mode = "FROZEN";
        if (unfreeze && rebuilt.rebuilt() && after.kind() == ReadingKind.IN_STEP && ledgerSound) {
            mode = giveBack(sku, found, why, actor, traceId);
        }
        Healed healed = new Healed(sku, before, after, rebuilt.rebuilt(), mode, ledgerSound);
        transactions.executeWithoutResult(tx -> audit.record(actor, "HEAL", "sku:" + sku, why, summary(before),
                summary(after, healed), traceId));
        return healed;
    }

    /**
     * Gives back the mode the SKU had before the heal: a person's throttle stands, everything else
     * sells normally. A freeze someone else set during the heal stands too.
     */
    private String giveBack(SkuId sku, ModeState found, String why, Actor actor, TraceId traceId) {
        boolean personsThrottle = found.mode() == SkuMode.THROTTLED && !DriftProbe.PROBE.toString().equals(found.changedBy());
        SkuMode target = personsThrottle ? SkuMode.THROTTLED : SkuMode.NORMAL;
        if (found.mode() == SkuMode.FROZEN) {
            guards.unfreeze(sku, "healed: " + why, actor, traceId);
        } else {
            guards.restoreIfStillOwn(sku, SkuMode.FROZEN, target, found.throttleRate(), "healed: " + why, actor, traceId);
        }
        return guards.mode(sku).map(m -> m.mode().name()).orElse("FROZEN");
    }

    private Reading reading(SkuId sku, HotStore hot) {
        LedgerSide.SkuState state = ledger.state(sku).orElseThrow(() -> ApiProblemException.unknownSku(sku.value()));
        Optional<HotStore.Snapshot> snapshot = hot.snapshot(sku);
        if (!state.hotOwned() || snapshot.isEmpty()) {
            return Reading.of(sku, clock.instant(), snapshot.isEmpty() ? ReadingKind.NOT_LOADED
                    : ReadingKind.NOT_COMPARABLE, snapshot.isEmpty() ? "not in the hot store"
                    : "the database path serves this SKU");
        }
        return DriftMeasure.hotStore(state, snapshot.get(), settings.levels(), clock.instant());
    }

    private static Map<String, Object> summary(Reading reading) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("kind", reading.kind().name());
        summary.put("driftUnits", reading.units());
        summary.put("driftPercent", Math.round(reading.percent() * 1000) / 1000.0);
        summary.put("detail", reading.detail());
        return summary;
    }

    private static Map<String, Object> summary(Reading reading, Healed healed) {
        Map<String, Object> summary = summary(reading);
        summary.put("rebased", healed.rebased());
        summary.put("mode", healed.mode());
        summary.put("ledgerSound", healed.ledgerSound());
        return summary;
    }
}
