package io.stockguard.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AlertingPropertiesTest {

    private static AlertingProperties.Channel channel(String name, ChannelType type, String url, String secret,
            Map<String, String> headers, List<String> recipients, Set<AlertLevel> levels) {
        return new AlertingProperties.Channel(name, type, url, secret, headers, recipients, levels, null);
    }

    private static AlertingProperties with(AlertingProperties.Channel... channels) {
        return new AlertingProperties(true, List.of(channels), Duration.ofMinutes(5),
                new AlertingProperties.RateLimit(6, Duration.ofHours(1)), 1000, 2, Duration.ofMillis(250),
                Duration.ofSeconds(10), Duration.ofSeconds(2), 300, null,
                new AlertingProperties.Retention(Duration.ofDays(30), 1000, Duration.ofMinutes(10)));
    }

    @Test
    void levelsDefaultByTypeAndTheTimeoutToTheGlobalOne() {
        AlertingProperties properties = with(
                channel("chat", ChannelType.FEISHU, "https://open.feishu.cn/open-apis/bot/v2/hook/x", "s", null, null, null),
                channel("sms", ChannelType.SMS, "https://sms.example/send", null, null, List.of("+86 138"), null),
                channel("phone", ChannelType.PHONE, "https://call.example/call", null, null, List.of("+86 138"), null),
                channel("info", ChannelType.SLACK, "https://hooks.slack.com/services/x", null, null, null,
                        Set.of(AlertLevel.INFO)));
        assertThat(properties.channel("chat").levels()).containsExactlyInAnyOrder(AlertLevel.WARN, AlertLevel.THROTTLE,
                AlertLevel.FREEZE);
        assertThat(properties.channel("sms").levels()).containsExactlyInAnyOrder(AlertLevel.THROTTLE, AlertLevel.FREEZE);
        assertThat(properties.channel("phone").levels()).containsExactly(AlertLevel.FREEZE);
        assertThat(properties.channel("info").levels()).containsExactly(AlertLevel.INFO);
        assertThat(properties.channel("chat").timeout()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void refusesEveryBadChannelNamingItsSetting() {
        assertThatThrownBy(() -> with(
                channel("a", ChannelType.FEISHU, "ftp://x/y", null, null, null, null),
                channel("b", ChannelType.SMS, "https://sms.example", null, null, List.of(), null),
                channel("a", ChannelType.SLACK, null, "s3cr3t-value", null, null, null),
                channel("d", ChannelType.WEBHOOK, "https://x.example", null, Map.of("Host", "evil"), null, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stockguard.alerting.channels[0].url must be an http or https URL")
                .hasMessageContaining("stockguard.alerting.channels[1].recipients is required for SMS")
                .hasMessageContaining("stockguard.alerting.channels[2].name 'a' is used by another channel")
                .hasMessageContaining("stockguard.alerting.channels[2].url is required")
                .hasMessageContaining("stockguard.alerting.channels[2].secret is used only by FEISHU and DINGTALK")
                .hasMessageContaining("stockguard.alerting.channels[3].headers: 'Host'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3cr3t-value"));
    }

    @Test
    void refusesOutOfRangeLimits() {
        assertThatThrownBy(() -> new AlertingProperties.RateLimit(0, Duration.ofHours(1)))
                .hasMessageContaining("stockguard.alerting.rate-limit-per-sku-and-level.max");
        assertThatThrownBy(() -> new AlertingProperties.Retention(Duration.ofMinutes(1), 10, Duration.ofMinutes(1)))
                .hasMessageContaining("stockguard.alerting.retention.max-age");
        assertThatThrownBy(() -> new AlertingProperties(true, List.of(), Duration.ofMinutes(5),
                new AlertingProperties.RateLimit(6, Duration.ofHours(1)), 0, 2, Duration.ofMillis(250),
                Duration.ofSeconds(10), Duration.ofMillis(1), 300, null,
                new AlertingProperties.Retention(Duration.ofDays(30), 1000, Duration.ofMinutes(10))))
                .hasMessageContaining("stockguard.alerting.queue-capacity")
                .hasMessageContaining("stockguard.alerting.timeout");
    }

    @Test
    void aChannelPrintsNeitherItsSecretNorItsHeaderValuesNorItsUrlToken() {
        AlertingProperties properties = with(channel("ding", ChannelType.DINGTALK,
                "https://oapi.dingtalk.com/robot/send?access_token=tok-123", "SEC-secret", Map.of("X-Key", "hdr-456"),
                null, null));
        String printed = properties.toString();
        assertThat(printed).contains("ding", "oapi.dingtalk.com").doesNotContain("tok-123", "SEC-secret", "hdr-456");
        assertThat(properties.channel("ding").maskedUrl()).isEqualTo("https://oapi.dingtalk.com/***");
    }
}
