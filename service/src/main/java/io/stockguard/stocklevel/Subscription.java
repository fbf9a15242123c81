package io.stockguard.stocklevel;

import java.time.Instant;

/**
 * A webhook subscribed to stock-level events by the admin API.
 *
 * @param secret the key of each delivery's HMAC-SHA256 signature
 * @param createdBy who subscribed it, as the audit names them
 */
public record Subscription(String name, String url, String secret, Instant createdAt, String createdBy) {

    /** Never the secret. */
    @Override
    public String toString() {
        return "Subscription[name=" + name + ", url=" + url + ", secret=***, createdBy=" + createdBy + "]";
    }
}
