/**
 * Alerts: a signal raised anywhere in the service reaches people through the channels configured
 * for its level (Feishu, DingTalk, Slack, a generic webhook, SMS and phone through the user's
 * provider), without ever making the raiser wait on the network.
 *
 * <p>How to raise one (the reconciliation probe, listeners of other modules' events):
 * <pre>{@code
 * alerts.raise(Alert.of(AlertLevel.THROTTLE, "drift", skuId, "Drift 1.8% on " + skuId,
 *         "hot store 980, database 998, in flight 0", clock.instant()));
 * }</pre>
 * {@link io.stockguard.alerting.Alerts#raise} returns at once: the alert is put on a bounded queue
 * per channel and delivered by that channel's own thread, with a timeout on every attempt, a few
 * retries and a hard deadline. A repeat of the same kind, SKU and level within the dedupe window is
 * recorded once (counted as suppressed) and not sent again; each channel also caps alerts per SKU
 * and level per hour. {@link io.stockguard.alerting.AlertFeed} lists what was raised, newest first,
 * with each channel's delivery status.
 */
@ApplicationModule(allowedDependencies = {"platform", "stock", "audit", "journal", "guard", "reconciliation"})
package io.stockguard.alerting;

import org.springframework.modulith.ApplicationModule;
