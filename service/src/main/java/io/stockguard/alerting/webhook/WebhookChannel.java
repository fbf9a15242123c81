package io.stockguard.alerting.webhook;

import io.stockguard.alerting.Alert;
import io.stockguard.alerting.AlertLevel;
import io.stockguard.alerting.AlertingProperties;
import io.stockguard.alerting.ChannelType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One configured channel: formats an alert in its provider's wire format and POSTs it with the
 * JDK client. Every attempt is bounded in time as a whole (connect, request and the answer's body),
 * because a provider that accepts the connection and never answers must cost the channel's worker
 * one timeout, not forever.
 */
public final class WebhookChannel {

    private static final int ERROR_LENGTH_MAX = 300;
    private static final int ANSWER_SHOWN_MAX = 200;

    private final AlertingProperties.Channel settings;
    private final Format format;
    private final HttpClient http;
    private final Clock clock;
    /** The URL, the secret and header values: cut out of any error text before it is kept or logged. */
    private final List<String> confidential;

    private WebhookChannel(AlertingProperties.Channel settings, Format format, Clock clock) {
        this.settings = settings;
        this.format = format;
        this.clock = clock;
        this.http = HttpClient.newBuilder()
                .connectTimeout(settings.timeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        List<String> hidden = new ArrayList<>();
        hidden.add(settings.url());
        URI uri = URI.create(settings.url());
        if (uri.getRawPath() != null && uri.getRawPath().length() > 1) {
            hidden.add(uri.getRawPath());
        }
        if (uri.getRawQuery() != null) {
            hidden.add(uri.getRawQuery());
        }
        if (settings.secret() != null) {
            hidden.add(settings.secret());
        }
        hidden.addAll(settings.headers().values());
        this.confidential = List.copyOf(hidden);
    }

    /**
     * @param instance this instance's name, sent by generic webhooks
     * @param pagerLengthMax SMS and phone messages are shortened to this many characters
     */
    public static WebhookChannel of(AlertingProperties.Channel settings, String instance, int pagerLengthMax,
            Clock clock) {
        URI uri = URI.create(settings.url());
        Format format = switch (settings.type()) {
            case FEISHU -> new Formats.Feishu(uri, settings.secret());
            case DINGTALK -> new Formats.DingTalk(uri, settings.secret());
            case SLACK -> new Formats.Slack(uri);
            case WEBHOOK -> new Formats.Webhook(uri, instance);
            case SMS, PHONE -> new Formats.Pager(uri, settings.recipients(), pagerLengthMax);
        };
        return new WebhookChannel(settings, format, clock);
    }

    public String name() {
        return settings.name();
    }

    public ChannelType type() {
        return settings.type();
    }

    public Set<AlertLevel> levels() {
        return settings.levels();
    }

    public boolean takes(AlertLevel level) {
        return settings.levels().contains(level);
    }

    private static Attempt noAnswer(Duration timeout) {
        return new Attempt.Failed("no answer within " + timeout.toMillis() + " ms");
    }

    /** Sends once, waiting at most {@code limit} (and never longer than the channel's timeout). */
    public Attempt send(Alert alert, Duration limit) {
        Duration timeout = limit.compareTo(settings.timeout()) < 0 ? limit : settings.timeout();
        if (!timeout.isPositive()) {
            return new Attempt.Failed("no time left before the delivery deadline");
        }
        Format.Outgoing outgoing = format.request(alert, clock.instant());
        HttpRequest.Builder request = HttpRequest.newBuilder(outgoing.uri())
                .timeout(timeout)
                .header("Content-Type", "application/json; charset=utf-8")
                .header("User-Agent", "StockGuard-alerts")
                .POST(HttpRequest.BodyPublishers.ofString(Formats.json(outgoing.body()), StandardCharsets.UTF_8));
        settings.headers().forEach(request::header);
        CompletableFuture<HttpResponse<String>> answer = http.sendAsync(request.build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        try {
            return judge(answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            answer.cancel(true);
            return noAnswer(timeout);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof HttpTimeoutException) {
                // The client's own timer and the wait above race for the same moment: one reason.
                return noAnswer(timeout);
            }
            return failed(cause.getClass().getSimpleName() + ": " + cause.getMessage());
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            return new Attempt.Failed("interrupted while sending (the service is stopping)");
        }
    }

    private Attempt judge(HttpResponse<String> response) {
        String body = response.body() == null ? "" : response.body();
        if (response.statusCode() < 200 || response.statusCode() > 299) {
            return failed("HTTP " + response.statusCode() + (body.isBlank() ? "" : ": " + shorten(body, ANSWER_SHOWN_MAX)));
        }
        String refusal = format.refusal(body);
        return refusal == null ? new Attempt.Sent() : failed("refused by the provider: " + refusal);
    }

    private Attempt.Failed failed(String error) {
        String clean = error == null ? "unknown error" : error;
        for (String hidden : confidential) {
            if (hidden != null && !hidden.isEmpty()) {
                clean = clean.replace(hidden, "***");
            }
        }
        return new Attempt.Failed(shorten(clean.replaceAll("\\s+", " ").strip(), ERROR_LENGTH_MAX));
    }

    private static String shorten(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }

    /** What operators may see of this channel: never its URL's path, secret or header values. */
    public Map<String, Object> describe() {
        return Map.of("name", settings.name(), "type", settings.type().name(), "url", settings.maskedUrl(),
                "levels", settings.levels().stream().sorted().map(Enum::name).toList());
    }
}
