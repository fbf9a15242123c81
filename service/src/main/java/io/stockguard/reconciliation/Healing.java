package io.stockguard.reconciliation;

import io.stockguard.audit.AuditLog;
import io.stockguard.guard.SkuGuards;
import io.stockguard.platform.Actor;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.ProblemCode;
import io.stockguard.platform.TraceId;
import io.stockguard.reservation.HotStore;
import io.stockguard.stock.SkuId;
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
    private final ReconciliationProperties settings;
    private final Clock clock;

    Healing(LedgerSide ledger, ObjectProvider<HotStore> hotStore, SkuGuards guards, AuditLog audit,
            TransactionTemplate transactions, ReconciliationProperties settings, Clock clock) {
        this.ledger = ledger;
        this.hotStore = hotStore;
        this.guards = guards;
        this.audit = audit;
        this.transactions = transactions;
        this.settings = settings;
        this.clock = clock;
    }

    /** What a heal did: the readings before and after, whether the hot store was rebased, the mode left. */
    public record Healed(SkuId skuId, Reading before, Reading after, boolean rebased, String mode) {
    }

    public Healed heal(SkuId sku, String reason, boolean unfreeze, Actor actor, TraceId traceId) {
        String why = SkuGuards.requireReason(reason);
        HotStore hot = hotStore.getIfAvailable();
        if (hot == null) {
            throw new ApiProblemException(ProblemCode.HEAL_UNSUPPORTED, "This tier has no hot store to rebase: the "
                    + "database is the only ledger. A ledger mismatch needs a person to correct the counters (adjust).",
                    Map.of("skuId", sku.value()));
        }
        Reading before = reading(sku, hot);
        LedgerSide.SkuState state = ledger.state(sku).orElseThrow();
        if (!"FROZEN".equals(state.mode())) {
            guards.freeze(sku, "heal: " + why, actor, traceId);
        }
        HotStore.Rebuilt rebuilt = hot.rebuild(sku, "heal: " + why, new Caller(actor, traceId));
        Reading after = reading(sku, hot);
        String mode = "FROZEN";
        if (unfreeze && rebuilt.rebuilt() && after.kind() == ReadingKind.IN_STEP) {
            guards.unfreeze(sku, "healed: " + why, actor, traceId);
            mode = "NORMAL";
        }
        Healed healed = new Healed(sku, before, after, rebuilt.rebuilt(), mode);
        transactions.executeWithoutResult(tx -> audit.record(actor, "HEAL", "sku:" + sku, why, summary(before),
                summary(after, healed), traceId));
        return healed;
    }

    private Reading reading(SkuId sku, HotStore hot) {
        LedgerSide.SkuState state = ledger.state(sku).orElseThrow(() -> new ApiProblemException(ProblemCode.UNKNOWN_SKU,
                "SKU " + sku + " does not exist", Map.of("skuId", sku.value())));
        Optional<HotStore.Snapshot> snapshot = hot.snapshot(sku);
        if (!state.hotValid() || snapshot.isEmpty()) {
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
        return summary;
    }
}
