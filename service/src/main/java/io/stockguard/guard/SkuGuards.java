package io.stockguard.guard;

import io.micrometer.core.instrument.MeterRegistry;
import io.stockguard.audit.AuditLog;
import io.stockguard.platform.Actor;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.ProblemCode;
import io.stockguard.platform.TraceId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.SkuMode;
import io.stockguard.stock.StockLimits;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/** Freezes and unfreezes SKUs: the post-mortem's one-click stop, audited and effective on return. */
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
        return change(skuId, SkuMode.FROZEN, 0, "FREEZE", reason, actor, traceId);
    }

    public Optional<SkuModeChanged> unfreeze(SkuId skuId, String reason, Actor actor, TraceId traceId) {
        return change(skuId, SkuMode.NORMAL, 0, "UNFREEZE", reason, actor, traceId);
    }

    /**
     * Lets every instance together accept at most {@code ratePerSecond} new reservations of the
     * SKU per second (a burst of one second's worth); the excess gets 429 THROTTLED with a
     * Retry-After. Unthrottle with {@link #unfreeze}, which sets the SKU back to NORMAL.
     */
    public Optional<SkuModeChanged> throttle(SkuId skuId, int ratePerSecond, String reason, Actor actor,
            TraceId traceId) {
        if (ratePerSecond < 1 || ratePerSecond > THROTTLE_RATE_MAX) {
            throw new InvalidRequestException("ratePerSecond", "must be between 1 and " + THROTTLE_RATE_MAX);
        }
        if (!store.enforcesThrottle()) {
            throw new ApiProblemException(ProblemCode.THROTTLE_UNSUPPORTED, "This tier cannot throttle a SKU: the "
                    + "database ledger does not enforce a rate. Freeze it, or run the standard or full tier.",
                    Map.of("skuId", skuId.value()));
        }
        // Throttling a frozen SKU would quietly let it sell again: unfreezing is its own decision.
        return changeIf(skuId, state -> {
            if (state.mode() == SkuMode.FROZEN) {
                throw new ApiProblemException(ProblemCode.SKU_FROZEN, "SKU " + skuId + " is frozen; a throttle would "
                        + "let it sell again. Unfreeze it first if that is what you mean.", Map.of("skuId", skuId.value()));
            }
            return true;
        }, SkuMode.THROTTLED, ratePerSecond, "THROTTLE", reason, actor, traceId);
    }

    /**
     * For automatic guards (the reconciliation probe): raises the SKU's mode to {@code target} only
     * if it is lower now (NORMAL to THROTTLED or FROZEN, THROTTLED to FROZEN), deciding on the mode
     * read under the SKU's lock, so a person's change made meanwhile is never undone. Empty when
     * nothing changed.
     */
    public Optional<SkuModeChanged> escalate(SkuId skuId, SkuMode target, int ratePerSecond, String reason, Actor actor,
            TraceId traceId) {
        if (target == SkuMode.THROTTLED && !store.enforcesThrottle()) {
            return Optional.empty();
        }
        return changeIf(skuId, state -> state.mode().ordinal() < target.ordinal(), target,
                target == SkuMode.THROTTLED ? ratePerSecond : 0, target == SkuMode.FROZEN ? "FREEZE" : "THROTTLE",
                reason, actor, traceId);
    }

    /**
     * Sets the SKU back to {@code mode} (NORMAL, or THROTTLED at {@code ratePerSecond}) only if it is
     * still in the mode {@code actor} itself set: an automatic throttle lifted, or a heal giving
     * back the mode it found. A mode someone else set meanwhile stands. Empty when nothing changed.
     */
    public Optional<SkuModeChanged> restoreIfStillOwn(SkuId skuId, SkuMode expected, SkuMode mode, int ratePerSecond,
            String reason, Actor actor, TraceId traceId) {
        String action = mode == SkuMode.THROTTLED ? "THROTTLE" : expected == SkuMode.THROTTLED ? "UNTHROTTLE" : "UNFREEZE";
        return changeIf(skuId, state -> state.mode() == expected && actor.toString().equals(state.changedBy()), mode,
                mode == SkuMode.THROTTLED ? ratePerSecond : 0, action, reason, actor, traceId);
    }

    /** The SKU's mode as stored now; empty when the SKU does not exist. */
    public Optional<ModeState> mode(SkuId skuId) {
        return transactions.execute(status -> store.lockMode(skuId));
    }

    /** The highest throttle rate: above it a throttle would not slow anything that matters. */
    public static final int THROTTLE_RATE_MAX = 100_000;

    /** Whether this tier can throttle (see {@link #throttle}). */
    public boolean canThrottle() {
        return store.enforcesThrottle();
    }

    private Optional<SkuModeChanged> change(SkuId skuId, SkuMode mode, int rate, String action, String reason,
            Actor actor, TraceId traceId) {
        return changeIf(skuId, null, mode, rate, action, reason, actor, traceId);
    }

    /** A change made only if {@code expected} (when given) holds for the mode read under the SKU's lock. */
    private Optional<SkuModeChanged> changeIf(SkuId skuId, Predicate<ModeState> expected, SkuMode mode,
            int rate, String action, String reason, Actor actor, TraceId traceId) {
        String checkedReason = requireReason(reason);
        Optional<SkuModeChanged> change = transactions.execute(status -> {
            if (expected != null) {
                Optional<ModeState> now = store.lockMode(skuId);
                if (now.isEmpty() || !expected.test(now.get())) {
                    return Optional.<SkuModeChanged>empty();
                }
            }
            Optional<SkuModeChanged> result = store.setMode(skuId, mode, rate, checkedReason, actor, clock.instant());
            result.ifPresent(c -> audit.record(actor, action, "sku:" + skuId, checkedReason,
                    Map.of("mode", c.before()), rate > 0 ? Map.of("mode", c.after(), "ratePerSecond", rate)
                            : Map.of("mode", c.after()), traceId));
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
