package io.stockguard.alerting.web;

import io.stockguard.alerting.AlertFeed;
import io.stockguard.alerting.AlertLevel;
import io.stockguard.alerting.ChannelCheck;
import io.stockguard.alerting.RaisedAlert;
import io.stockguard.platform.Caller;
import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.stock.StockLimits;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/admin/alerts", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Admin: alerts", description = "Alerts raised by the service and their delivery to each channel; a "
        + "test alert to check the webhooks (audited)")
class AlertController {

    private static final int CHANNEL_NAME_LENGTH_MAX = 64;

    private final AlertFeed feed;
    private final ChannelCheck check;

    AlertController(AlertFeed feed, ChannelCheck check) {
        this.feed = feed;
        this.check = check;
    }

    /**
     * @param level INFO or WARN (default INFO)
     * @param channel one channel's name; every channel when absent
     */
    record TestRequest(String reason, String level, String channel) {
    }

    @GetMapping
    @Operation(summary = "Alerts, newest first, each with its status per channel (limit 1-500, default 50)")
    List<RaisedAlert> recent(@RequestParam(defaultValue = "50") int limit) {
        if (limit < 1 || limit > AlertFeed.LIMIT_MAX) {
            throw new InvalidRequestException("limit", "must be between 1 and " + AlertFeed.LIMIT_MAX);
        }
        return feed.recent(limit);
    }

    @GetMapping("/channels")
    @Operation(summary = "The configured channels: name, type, host of the URL and levels (never secrets)")
    List<Map<String, Object>> channels() {
        return check.channels();
    }

    @PostMapping(path = "/test", consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "Queue a test alert (INFO or WARN) to every channel, or to one, ignoring their levels; "
            + "audited. Its delivery shows in GET /api/v1/admin/alerts")
    ChannelCheck.TestAlert test(@RequestBody TestRequest body, HttpServletRequest request) {
        if (body == null || body.reason() == null || body.reason().isBlank()) {
            throw new InvalidRequestException("reason", "is required");
        }
        if (body.reason().length() > StockLimits.REASON_LENGTH_MAX) {
            throw new InvalidRequestException("reason", "is longer than " + StockLimits.REASON_LENGTH_MAX
                    + " characters");
        }
        String channel = body.channel() == null || body.channel().isBlank() ? null : body.channel().strip();
        if (channel != null && channel.length() > CHANNEL_NAME_LENGTH_MAX) {
            throw new InvalidRequestException("channel", "is longer than " + CHANNEL_NAME_LENGTH_MAX + " characters");
        }
        Caller caller = new Caller(CurrentRequest.actor(), CurrentRequest.traceId(request));
        return check.send(level(body.level()), channel, body.reason().strip(), caller);
    }

    private static AlertLevel level(String text) {
        if (text == null || text.isBlank()) {
            return AlertLevel.INFO;
        }
        return switch (text.strip().toUpperCase(Locale.ROOT)) {
            case "INFO" -> AlertLevel.INFO;
            case "WARN" -> AlertLevel.WARN;
            default -> throw new InvalidRequestException("level", "a test alert is INFO or WARN");
        };
    }
}
