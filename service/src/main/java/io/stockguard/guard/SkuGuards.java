package io.stockguard.guard;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.audit.AuditLog;
import io.stockguard.platform.Actor;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.TraceId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import io.stockguard.stock.StockLimits;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/** Freezes and unfreezes SKUs: the seeds' one-click stop, audited and effective on return. */
@Service
public class SkuGuards {

    private final SkuModeStore store;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;
    private final MeterRegistry meters;
    private final Clock clock;

    SkuGuards(SkuModeStore store, AuditLog audit, TransactionTemplate transactions, ApplicationEventPublisher events,
            MeterRegistry meters, Clock clock) {
        this.store = store;
        this.audit = audit;
        this.transactions = transactions;
        this.events = events;
        this.meters = meters;
        this.clock = clock;
    }

    public Optional<SkuModeChanged> freeze(SkuId skuId, String reason, Actor actor, TraceId traceId) {
        return change(skuId, SkuMode.FROZEN, "FREEZE", reason, actor, traceId);
    }

    public Optional<SkuModeChanged> unfreeze(SkuId skuId, String reason, Actor actor, TraceId traceId) {
        return change(skuId, SkuMode.NORMAL, "UNFREEZE", reason, actor, traceId);
    }

    private Optional<SkuModeChanged> change(SkuId skuId, SkuMode mode, String action, String reason, Actor actor,
            TraceId traceId) {
        String checkedReason = requireReason(reason);
        Optional<SkuModeChanged> change = transactions.execute(status -> {
            Optional<SkuModeChanged> result = store.setMode(skuId, mode, checkedReason, actor, clock.instant());
            result.ifPresent(c -> audit.record(actor, action, "sku:" + skuId, checkedReason,
                    Map.of("mode", c.before()), Map.of("mode", c.after()), traceId));
            return result;
        });
        change.ifPresent(c -> {
            meters.counter("stockguard.guard.mode.changes", "to", c.after().name(), "action", action).increment();
            events.publishEvent(c);
        });
        return change;
    }

    /** Every mode change is explained: the reason is what the next person on duty reads first. */
    public static String requireReason(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new InvalidRequestException("reason", "is required: say why, for whoever is on duty next");
        }
        if (reason.length() > StockLimits.REASON_LENGTH_MAX) {
            throw new InvalidRequestException("reason", "is longer than " + StockLimits.REASON_LENGTH_MAX + " characters");
        }
        return reason.strip();
    }
}
