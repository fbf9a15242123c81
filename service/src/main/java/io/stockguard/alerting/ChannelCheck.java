package io.stockguard.alerting;

import io.stockguard.platform.Caller;
import java.util.List;
import java.util.Map;

/** Lets operators check their webhooks: a test alert to every channel (or one), audited. */
public interface ChannelCheck {

    /**
     * Queues a test alert of {@code level} (INFO or WARN) to the named channel, or to every
     * channel when {@code channel} is null, regardless of the levels they take and of dedupe and
     * rate limits. Fails with {@code UNKNOWN_CHANNEL} when there is no such channel (or none).
     */
    TestAlert send(AlertLevel level, String channel, String reason, Caller caller);

    /** The configured channels as operators may see them: name, type, host of the URL, levels. */
    List<Map<String, Object>> channels();

    /** The test alert's id (to find it in the feed) and the channels it was queued for. */
    record TestAlert(String alertId, AlertLevel level, List<String> channels) {
    }
}
