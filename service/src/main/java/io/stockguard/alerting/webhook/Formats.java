package io.stockguard.alerting.webhook;

import io.stockguard.alerting.Alert;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The providers' wire formats, as their public documentation gives them. */
final class Formats {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Formats() {
    }

    /** Feishu / Lark custom bot: a text message, signed in the body when a secret is set. */
    record Feishu(URI uri, String secret) implements Format {

        @Override
        public Outgoing request(Alert alert, Instant now) {
            Map<String, Object> body = new LinkedHashMap<>();
            if (secret != null) {
                long seconds = now.getEpochSecond();
                body.put("timestamp", Long.toString(seconds));
                body.put("sign", Signatures.feishu(seconds, secret));
            }
            body.put("msg_type", "text");
            body.put("content", Map.of("text", alert.text()));
            return new Outgoing(uri, body);
        }

        /** Feishu answers 200 with {@code {"code": 19021, "msg": "sign match fail ..."}} when it refuses. */
        @Override
        public String refusal(String body) {
            return nonZero(body, "code", "msg");
        }
    }

    /** DingTalk custom robot: a text message, signed in the URL when a secret is set. */
    record DingTalk(URI uri, String secret) implements Format {

        @Override
        public Outgoing request(Alert alert, Instant now) {
            URI target = uri;
            if (secret != null) {
                long millis = now.toEpochMilli();
                String sign = URLEncoder.encode(Signatures.dingTalk(millis, secret), StandardCharsets.UTF_8);
                String query = "timestamp=" + millis + "&sign=" + sign;
                target = URI.create(uri + (uri.getRawQuery() == null ? "?" : "&") + query);
            }
            return new Outgoing(target, Map.of("msgtype", "text", "text", Map.of("content", alert.text())));
        }

        /** DingTalk answers 200 with {@code {"errcode": 310000, "errmsg": "sign not match"}} when it refuses. */
        @Override
        public String refusal(String body) {
            return nonZero(body, "errcode", "errmsg");
        }
    }

    /** Slack incoming webhook: plain text; Slack refuses with a 4xx status, so 2xx is accepted. */
    record Slack(URI uri) implements Format {

        @Override
        public Outgoing request(Alert alert, Instant now) {
            return new Outgoing(uri, Map.of("text", alert.text()));
        }
    }

    /** Any endpoint: the alert itself as JSON, with the instance that raised it. */
    record Webhook(URI uri, String instance) implements Format {

        @Override
        public Outgoing request(Alert alert, Instant now) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("level", alert.level().name());
            body.put("kind", alert.kind());
            body.put("skuId", alert.skuId());
            body.put("title", alert.title());
            body.put("detail", alert.detail());
            body.put("at", alert.at().toString());
            body.put("dedupeKey", alert.dedupeKey());
            body.put("instance", instance);
            return new Outgoing(uri, body);
        }
    }

    /** SMS or phone through the user's provider: numbers and a message short enough for a text. */
    record Pager(URI uri, List<String> recipients, int messageLengthMax) implements Format {

        @Override
        public Outgoing request(Alert alert, Instant now) {
            String message = "[" + alert.level() + "] StockGuard: " + alert.title()
                    + (alert.skuId() == null ? "" : " (SKU " + alert.skuId() + ")")
                    + (alert.detail().isEmpty() ? "" : " - " + alert.detail());
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("to", recipients);
            body.put("message", message.length() <= messageLengthMax ? message
                    : message.substring(0, messageLengthMax - 1) + "…");
            body.put("level", alert.level().name());
            body.put("skuId", alert.skuId());
            return new Outgoing(uri, body);
        }
    }

    static String json(Map<String, Object> body) {
        return JSON.writeValueAsString(body);
    }

    /** A refusal when the answer is JSON with a non-zero {@code codeField}; an unreadable answer is accepted. */
    private static String nonZero(String body, String codeField, String messageField) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            JsonNode answer = JSON.readTree(body);
            JsonNode code = answer.get(codeField);
            if (code != null && code.isNumber() && code.asLong() != 0) {
                JsonNode message = answer.get(messageField);
                return codeField + " " + code.asLong() + (message == null ? "" : ": " + message.asString());
            }
            return null;
        } catch (JacksonException e) {
            return null;
        }
    }
}
