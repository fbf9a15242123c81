package io.stockguard.alerting;

import io.stockguard.guard.SkuModeChanged;
import io.stockguard.journal.EventDeadLettered;
import io.stockguard.journal.HotStoreLostWrites;
import io.stockguard.journal.JournalBacklogChanged;
import io.stockguard.reconciliation.DriftDetected;
import io.stockguard.reconciliation.Reading;
import io.stockguard.reconciliation.ReadingKind;
import io.stockguard.reconciliation.SafetyStockLow;
import java.time.Clock;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Other modules' events that people must hear about. Plain synchronous listeners: raising never
 * blocks, and the events are published outside any transaction (a transactional module listener
 * would never see them).
 */
@Component
class AlertTriggers {

    private final Alerts alerts;
    private final Clock clock;

    AlertTriggers(Alerts alerts, Clock clock) {
        this.alerts = alerts;
        this.clock = clock;
    }

    /**
     * The reconciliation probe found drift, a regression or a broken ledger at WARN or above. The
     * alert's level is the drift's, so routing follows the post-mortem's table (warn → chat, throttle →
     * chat + SMS, freeze → chat + SMS + phone); a regression is a freeze.
     */
    @EventListener
    void on(DriftDetected detected) {
        Reading r = detected.reading();
        AlertLevel level = r.kind() == ReadingKind.REGRESSION ? AlertLevel.FREEZE : AlertLevel.valueOf(r.level().name());
        String kind = "drift-" + r.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        String title = r.kind() == ReadingKind.REGRESSION ? "SKU " + r.skuId() + ": the hot store lost writes; "
                + "taken over by the database"
                : "SKU " + r.skuId() + ": " + r.kind() + " " + (r.units() > 0 ? "+" : "") + r.units() + " units ("
                        + String.format(java.util.Locale.ROOT, "%.2f", r.percent()) + "%), now " + detected.modeAfter();
        alerts.raise(Alert.of(level, kind, r.skuId(), title, r.detail() + ". Runbook: /console/runbooks/drift-detected; "
                + "heal: POST /api/v1/admin/skus/" + r.skuId() + "/heal", r.measuredAt()));
    }

    /**
     * A request met the same regression the probe reports (a failover that lost writes): the same
     * alert, at the same level, so it does not wait for the probe's next look at the SKU.
     */
    @EventListener
    void on(HotStoreLostWrites lost) {
        alerts.raise(Alert.of(AlertLevel.FREEZE, "drift-regression", lost.skuId(), "SKU " + lost.skuId()
                + ": the hot store lost writes; taken over by the database", lost.detail()
                + ". Nothing acknowledged is lost (the database has it); check Redis replication. Runbook: "
                + "/console/runbooks/drift-detected", lost.at()));
    }

    /** A hot SKU fell below its safety stock: restock or slow it down before it sells out. */
    @EventListener
    void on(SafetyStockLow low) {
        alerts.raise(Alert.of(AlertLevel.WARN, "safety-stock", low.skuId(), "SKU " + low.skuId()
                + " is below its safety stock", "available " + low.available() + " < safety stock " + low.safetyStock(),
                low.at()));
    }

    /** A poison event was set aside: the database is missing a change until someone replays it. */
    @EventListener
    void on(EventDeadLettered letter) {
        alerts.raise(Alert.of(AlertLevel.THROTTLE, "dead-letter", letter.skuId(),
                "A journal event could not be applied and was set aside as a dead letter",
                "event " + letter.eventId() + " from " + letter.source() + ": " + letter.error()
                        + ". Fix the cause, then replay it: POST /api/v1/admin/dead-letters/{id}/replay",
                clock.instant()));
    }

    @EventListener
    void on(JournalBacklogChanged change) {
        if (change.degraded()) {
            alerts.raise(Alert.of(AlertLevel.THROTTLE, "journal-backlog", (String) null,
                    "Journal backlog over its limit: new reservations are throttled",
                    change.backlog() + " events are not yet applied to the database (limit " + change.threshold()
                            + "); reservations are throttled until the backlog is below the recovery mark",
                    clock.instant()));
        } else {
            alerts.raise(Alert.of(AlertLevel.INFO, "journal-backlog-recovered", (String) null,
                    "Journal backlog recovered: reservations are no longer throttled",
                    change.backlog() + " events behind, below " + change.threshold(), clock.instant()));
        }
    }

    /**
     * A person froze or unfroze a SKU. Modes set by the system (the probe) are not repeated here:
     * the probe raises its own alert, with the drift that made it act.
     */
    @EventListener
    void on(SkuModeChanged change) {
        if (change.before() == change.after() || change.actor() == null) {
            return;
        }
        if (change.actor().startsWith("system:")) {
            // The probe's own escalations came with their drift alert; its lifting of a throttle
            // did not, and the people who were told of the throttle should hear it is over.
            if (change.after() == io.stockguard.stock.SkuMode.NORMAL) {
                alerts.raise(Alert.of(AlertLevel.INFO, "sku-mode-restored", change.skuId(),
                        "SKU " + change.skuId() + " sells normally again", change.reason(), change.at()));
            }
            return;
        }
        alerts.raise(Alert.of(AlertLevel.INFO, "sku-mode", change.skuId(),
                "SKU " + change.skuId() + " set " + change.after() + " by " + change.actor(),
                change.before() + " -> " + change.after() + ", reason: " + change.reason(), change.at()));
    }
}
