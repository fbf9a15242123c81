package io.stockguard.alerting.webhook;

import io.stockguard.alerting.Alert;
import java.net.URI;
import java.time.Instant;
import java.util.Map;

/** A provider's wire format: the request for an alert, and how its answer says "refused". */
interface Format {

    /** The request to send at {@code now} (signatures depend on the time). */
    Outgoing request(Alert alert, Instant now);

    /** Why a 2xx answer still means the provider refused the message, or null when it accepted it. */
    default String refusal(String body) {
        return null;
    }

    /** Where to POST and the JSON body, as maps and lists. */
    record Outgoing(URI uri, Map<String, Object> body) {
    }
}
