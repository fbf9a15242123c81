package io.stockguard.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AlertRateLimitTest {

    private static final Instant T0 = Instant.parse("2025-11-11T00:00:00Z");

    @Test
    void admitsUpToTheLimitPerChannelSkuAndLevelInTheWindow() {
        ChannelRateLimit limit = new ChannelRateLimit(3, Duration.ofHours(1), 100);
        for (int i = 0; i < 3; i++) {
            assertThat(limit.admit("sms", "A", AlertLevel.THROTTLE, T0.plusSeconds(i))).isTrue();
        }
        assertThat(limit.admit("sms", "A", AlertLevel.THROTTLE, T0.plusSeconds(10))).isFalse();
        assertThat(limit.admit("sms", "A", AlertLevel.FREEZE, T0.plusSeconds(10))).isTrue();
        assertThat(limit.admit("sms", "B", AlertLevel.THROTTLE, T0.plusSeconds(10))).isTrue();
        assertThat(limit.admit("phone", "A", AlertLevel.THROTTLE, T0.plusSeconds(10))).isTrue();
    }

    @Test
    void theWindowSlides() {
        ChannelRateLimit limit = new ChannelRateLimit(2, Duration.ofHours(1), 100);
        limit.admit("chat", "A", AlertLevel.WARN, T0);
        limit.admit("chat", "A", AlertLevel.WARN, T0.plus(Duration.ofMinutes(30)));
        assertThat(limit.admit("chat", "A", AlertLevel.WARN, T0.plus(Duration.ofMinutes(59)))).isFalse();
        assertThat(limit.admit("chat", "A", AlertLevel.WARN, T0.plus(Duration.ofMinutes(60)))).isTrue();
        assertThat(limit.admit("chat", "A", AlertLevel.WARN, T0.plus(Duration.ofMinutes(61)))).isFalse();
    }

    @Test
    void aRefusedAlertDoesNotUseTheAllowance() {
        ChannelRateLimit limit = new ChannelRateLimit(1, Duration.ofMinutes(10), 100);
        limit.admit("chat", null, AlertLevel.WARN, T0);
        for (int i = 1; i < 100; i++) {
            assertThat(limit.admit("chat", null, AlertLevel.WARN, T0.plusSeconds(i))).isFalse();
        }
        assertThat(limit.admit("chat", null, AlertLevel.WARN, T0.plus(Duration.ofMinutes(10)))).isTrue();
    }
}
