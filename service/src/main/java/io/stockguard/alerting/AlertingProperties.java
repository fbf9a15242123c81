package io.stockguard.alerting;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where alerts go and how hard the service tries ({@code stockguard.alerting.*}). Every value is
 * checked at start-up; a bad one stops the service with a message naming it. Secrets, header
 * values and webhook URLs (which often carry a token) never appear in that message or in a log.
 *
 * @param enabled false records and sends nothing (the metrics still count raised alerts)
 * @param channels where alerts go; none configured means alerts are only recorded
 * @param dedupeWindow a repeat of the same kind, SKU and level within it is counted, not sent (0s to 24h)
 * @param rateLimitPerSkuAndLevel the most alerts one channel sends for one SKU and level in a window
 * @param queueCapacity alerts waiting per channel; beyond it a channel drops new ones (1 to 100000)
 * @param retries attempts after the first when the provider fails (0 to 10)
 * @param retryBackoff pause before the first retry, doubled for each further one and drawn at random
 *     within half of that either way, so that channels failing together do not retry together (0s to 10s)
 * @param deliveryDeadline a delivery gives up when this has passed since its first attempt (100ms to 5m)
 * @param timeout a channel's connect and request timeout unless it sets its own (100ms to 60s)
 * @param smsLengthMax SMS and phone messages are shortened to this many characters (20 to 2000)
 * @param instance the name of this instance in generic webhook payloads; the host name when unset
 * @param retention how long alert rows are kept
 */
@ConfigurationProperties("stockguard.alerting")
public record AlertingProperties(
        @DefaultValue("true") boolean enabled,
        List<Channel> channels,
        @DefaultValue("5m") Duration dedupeWindow,
        @DefaultValue RateLimit rateLimitPerSkuAndLevel,
        @DefaultValue("1000") int queueCapacity,
        @DefaultValue("2") int retries,
        @DefaultValue("250ms") Duration retryBackoff,
        @DefaultValue("10s") Duration deliveryDeadline,
        @DefaultValue("2s") Duration timeout,
        @DefaultValue("300") int smsLengthMax,
        String instance,
        @DefaultValue Retention retention) {

    private static final String PREFIX = "stockguard.alerting.";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}");
    /** Headers the JDK client sets itself and refuses to take from a caller. */
    private static final Set<String> RESTRICTED_HEADERS = Set.of("connection", "content-length", "expect", "host",
            "upgrade", "content-type");

    public AlertingProperties {
        channels = channels == null ? List.of() : channels;
        List<String> problems = new ArrayList<>();
        between(problems, "dedupe-window", dedupeWindow, Duration.ZERO, Duration.ofHours(24));
        between(problems, "queue-capacity", queueCapacity, 1, 100_000);
        between(problems, "retries", retries, 0, 10);
        between(problems, "retry-backoff", retryBackoff, Duration.ZERO, Duration.ofSeconds(10));
        between(problems, "delivery-deadline", deliveryDeadline, Duration.ofMillis(100), Duration.ofMinutes(5));
        between(problems, "timeout", timeout, Duration.ofMillis(100), Duration.ofSeconds(60));
        between(problems, "sms-length-max", smsLengthMax, 20, 2_000);
        List<Channel> resolved = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < channels.size(); i++) {
            Channel channel = channels.get(i);
            String at = "channels[" + i + "].";
            checkChannel(problems, at, channel, names);
            if (channel != null && channel.type() != null) {
                resolved.add(channel.withDefaults(timeout));
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid alerting settings: " + String.join("; ", problems));
        }
        channels = List.copyOf(resolved);
    }

    private static void checkChannel(List<String> problems, String at, Channel channel, Set<String> names) {
        if (channel == null) {
            problems.add(PREFIX + at.substring(0, at.length() - 1) + " is empty");
            return;
        }
        if (channel.name() == null || !NAME.matcher(channel.name()).matches()) {
            problems.add(PREFIX + at + "name is required: 1 to 64 of A-Z a-z 0-9 . _ -");
        } else if (!names.add(channel.name().toLowerCase(Locale.ROOT))) {
            problems.add(PREFIX + at + "name '" + channel.name() + "' is used by another channel");
        }
        if (channel.type() == null) {
            problems.add(PREFIX + at + "type is required: one of FEISHU, DINGTALK, SLACK, WEBHOOK, SMS, PHONE");
            return;
        }
        checkUrl(problems, at, channel.url());
        if (channel.secret() != null && !channel.secret().isBlank() && !channel.type().signs()) {
            problems.add(PREFIX + at + "secret is used only by FEISHU and DINGTALK channels; put a provider's token "
                    + "in headers instead");
        }
        checkHeaders(problems, at, channel.headers());
        checkRecipients(problems, at, channel);
        if (channel.levels() != null && channel.levels().isEmpty()) {
            problems.add(PREFIX + at + "levels, when set, names at least one of INFO, WARN, THROTTLE, FREEZE");
        }
        if (channel.timeout() != null) {
            between(problems, at + "timeout", channel.timeout(), Duration.ofMillis(100), Duration.ofSeconds(60));
        }
    }

    private static void checkUrl(List<String> problems, String at, String url) {
        if (url == null || url.isBlank()) {
            problems.add(PREFIX + at + "url is required");
            return;
        }
        try {
            URI uri = new URI(url.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                problems.add(PREFIX + at + "url must be an http or https URL with a host");
            }
        } catch (URISyntaxException e) {
            // The reason would quote the URL, which may carry the webhook's token.
            problems.add(PREFIX + at + "url is not a valid URL");
        }
    }

    private static void checkHeaders(List<String> problems, String at, Map<String, String> headers) {
        if (headers == null) {
            return;
        }
        headers.forEach((name, value) -> {
            if (!HEADER_NAME.matcher(name).matches() || RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                problems.add(PREFIX + at + "headers: '" + name + "' is not a header name the service may set");
            } else if (value == null || value.isEmpty() || value.length() > 4_000 || value.chars().anyMatch(c -> c < 0x20)) {
                problems.add(PREFIX + at + "headers." + name + " must be 1 to 4000 printable characters");
            }
        });
    }

    private static void checkRecipients(List<String> problems, String at, Channel channel) {
        List<String> recipients = channel.recipients() == null ? List.of() : channel.recipients();
        if (channel.type().pages() && recipients.isEmpty()) {
            problems.add(PREFIX + at + "recipients is required for " + channel.type() + " channels: the numbers to call");
        }
        if (!channel.type().pages() && !recipients.isEmpty()) {
            problems.add(PREFIX + at + "recipients is used only by SMS and PHONE channels");
        }
        if (recipients.size() > 100 || recipients.stream().anyMatch(r -> r == null || r.isBlank() || r.length() > 64)) {
            problems.add(PREFIX + at + "recipients: at most 100, each 1 to 64 characters");
        }
    }

    private static void between(List<String> problems, String name, Duration value, Duration min, Duration max) {
        if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            problems.add(PREFIX + name + " must be between " + min + " and " + max + ", was " + value);
        }
    }

    private static void between(List<String> problems, String name, long value, long min, long max) {
        if (value < min || value > max) {
            problems.add(PREFIX + name + " must be between " + min + " and " + max + ", was " + value);
        }
    }

    /** The channel with this name (names are unique regardless of case), or null. */
    public Channel channel(String name) {
        return channels.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst().orElse(null);
    }

    /**
     * One place alerts go.
     *
     * @param url the webhook; for DingTalk including its {@code access_token}
     * @param secret Feishu's or DingTalk's signing secret; optional
     * @param headers sent with every request, e.g. {@code Authorization} for an SMS provider
     * @param recipients SMS and phone: the numbers (required for those, refused for others)
     * @param levels the levels this channel takes; by type when unset ({@link ChannelType#defaultLevels})
     * @param timeout connect and request timeout of one attempt; {@code stockguard.alerting.timeout} when unset
     */
    public record Channel(String name, ChannelType type, String url, String secret, Map<String, String> headers,
            List<String> recipients, Set<AlertLevel> levels, Duration timeout) {

        Channel withDefaults(Duration defaultTimeout) {
            return new Channel(name, type, url == null ? null : url.strip(),
                    secret == null || secret.isBlank() ? null : secret,
                    headers == null ? Map.of() : Map.copyOf(new LinkedHashMap<>(headers)),
                    recipients == null ? List.of() : recipients.stream().map(String::strip).toList(),
                    levels == null ? type.defaultLevels() : Set.copyOf(EnumSet.copyOf(levels)),
                    timeout == null ? defaultTimeout : timeout);
        }

        /** The URL without path or query, which often carry the webhook's token. */
        public String maskedUrl() {
            try {
                URI uri = new URI(url);
                return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + "/***";
            } catch (URISyntaxException | RuntimeException e) {
                return "***";
            }
        }

        /** Never the secret, header values or the URL's token. */
        @Override
        public String toString() {
            return "Channel[name=" + name + ", type=" + type + ", url=" + (url == null ? null : maskedUrl())
                    + ", secret=" + (secret == null ? "none" : "***") + ", headers="
                    + (headers == null ? "{}" : headers.keySet() + "=***") + ", recipients="
                    + (recipients == null ? 0 : recipients.size()) + ", levels=" + levels + ", timeout=" + timeout + "]";
        }
    }

    /**
     * @param max alerts one channel sends for one SKU and level within the window (1 to 10000)
     * @param window the sliding window (1s to 24h)
     */
    public record RateLimit(@DefaultValue("6") int max, @DefaultValue("1h") Duration window) {

        public RateLimit {
            List<String> problems = new ArrayList<>();
            between(problems, "rate-limit-per-sku-and-level.max", max, 1, 10_000);
            between(problems, "rate-limit-per-sku-and-level.window", window, Duration.ofSeconds(1), Duration.ofHours(24));
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(String.join("; ", problems));
            }
        }
    }

    /**
     * @param maxAge alerts older than this are deleted with their deliveries (1h to 3650d)
     * @param batchSize rows deleted per statement (1 to 10000)
     * @param sweepInterval how often old rows are looked for (1s to 1d)
     */
    public record Retention(@DefaultValue("30d") Duration maxAge, @DefaultValue("1000") int batchSize,
            @DefaultValue("10m") Duration sweepInterval) {

        public Retention {
            List<String> problems = new ArrayList<>();
            between(problems, "retention.max-age", maxAge, Duration.ofHours(1), Duration.ofDays(3650));
            between(problems, "retention.batch-size", batchSize, 1, 10_000);
            between(problems, "retention.sweep-interval", sweepInterval, Duration.ofSeconds(1), Duration.ofDays(1));
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(String.join("; ", problems));
            }
        }
    }
}
