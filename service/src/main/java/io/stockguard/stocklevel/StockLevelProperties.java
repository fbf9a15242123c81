package io.stockguard.stocklevel;

import static io.stockguard.platform.SettingChecks.requireBetween;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Stock-level events ({@code stockguard.stock-levels.*}).
 *
 * @param enabled whether SKUs' levels are watched and reported at all
 * @param sampleInterval how often the watcher reads the journal for SKUs that changed and looks at
 *     their stock: a change of level is reported within about this long (plus the journal's lag in
 *     the full tier). Changes within one interval are seen as one
 * @param backInStockAfter how long a sold-out SKU must stay available before it is reported back in
 *     stock: during a sale, units that a cancel or an expiry returns are usually sold again within
 *     seconds, and subscribers should not hear of each
 * @param webhooks where events are sent: each gets every event, signed with its own secret
 * @param topic the full tier's public Kafka topic that gets every event too (created on first use,
 *     with the journal's partitions, replication and min.insync.replicas); unused without Kafka
 * @param retryFirst the wait before the second attempt at a delivery; it doubles with each attempt,
 *     each wait drawn at random within half of its step either way
 * @param retryMax the longest wait between attempts
 * @param giveUpAfter a delivery still failing this long after its event is given up (and counted)
 * @param timeout how long one attempt may take, connection included
 */
@Validated
@ConfigurationProperties("stockguard.stock-levels")
public record StockLevelProperties(
        @DefaultValue("true") boolean enabled,
        @NotNull @DefaultValue("500ms") Duration sampleInterval,
        @NotNull @DefaultValue("5s") Duration backInStockAfter,
        @NotNull @DefaultValue List<Webhook> webhooks,
        @NotBlank @DefaultValue("stockguard.stock-levels") String topic,
        @NotNull @DefaultValue("1s") Duration retryFirst,
        @NotNull @DefaultValue("5m") Duration retryMax,
        @NotNull @DefaultValue("24h") Duration giveUpAfter,
        @NotNull @DefaultValue("5s") Duration timeout) {

    static final int WEBHOOKS_MAX = 20;

    public StockLevelProperties {
        requireBetween("stockguard.stock-levels.sample-interval", sampleInterval, Duration.ofMillis(50),
                Duration.ofMinutes(1));
        requireBetween("stockguard.stock-levels.back-in-stock-after", backInStockAfter, Duration.ZERO,
                Duration.ofHours(1));
        requireBetween("stockguard.stock-levels.retry-first", retryFirst, Duration.ofMillis(100),
                Duration.ofMinutes(10));
        requireBetween("stockguard.stock-levels.retry-max", retryMax, retryFirst, Duration.ofHours(6));
        requireBetween("stockguard.stock-levels.give-up-after", giveUpAfter, Duration.ofMinutes(1),
                Duration.ofDays(7));
        requireBetween("stockguard.stock-levels.timeout", timeout, Duration.ofMillis(100), Duration.ofMinutes(1));
        webhooks = webhooks == null ? List.of() : List.copyOf(webhooks);
        if (topic != null && !topic.matches("[A-Za-z0-9._-]{1,58}")) {
            throw new IllegalArgumentException("stockguard.stock-levels.topic must be a Kafka topic name: 1-58 of "
                    + "A-Z a-z 0-9 . _ -");
        }
        if (webhooks.size() > WEBHOOKS_MAX) {
            throw new IllegalArgumentException("stockguard.stock-levels.webhooks: at most " + WEBHOOKS_MAX);
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < webhooks.size(); i++) {
            Webhook webhook = webhooks.get(i);
            String at = "stockguard.stock-levels.webhooks[" + i + "]";
            String name = WebhookRules.nameProblem(webhook.name());
            if (name != null) {
                throw new IllegalArgumentException(at + ".name " + name);
            }
            if (!names.add(webhook.name())) {
                throw new IllegalArgumentException(at + ".name " + webhook.name() + " is used twice");
            }
            String url = WebhookRules.urlProblem(webhook.url());
            if (url != null) {
                throw new IllegalArgumentException(at + ".url " + url);
            }
            String secret = WebhookRules.secretProblem(webhook.secret());
            if (secret != null) {
                throw new IllegalArgumentException(at + ".secret " + secret);
            }
        }
    }

    /**
     * A subscriber.
     *
     * @param name how deliveries to it are recorded
     * @param secret the key of the HMAC-SHA256 signature of each delivery
     */
    public record Webhook(String name, String url, String secret) {

        /** Never the secret. */
        @Override
        public String toString() {
            return "Webhook[name=" + name + ", url=" + url + ", secret=***]";
        }
    }
}
