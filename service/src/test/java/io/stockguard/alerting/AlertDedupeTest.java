package io.stockguard.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AlertDedupeTest {

    private static final Instant T0 = Instant.parse("2025-11-11T00:00:00Z");

    @Test
    void aRepeatInsideTheWindowPointsAtTheFirstAlert() {
        DedupeWindow window = new DedupeWindow(Duration.ofMinutes(5), 100);
        assertThat(window.firstOf("drift|A|WARN", "a1", T0)).isEmpty();
        assertThat(window.firstOf("drift|A|WARN", "a2", T0.plusSeconds(10))).contains("a1");
        assertThat(window.firstOf("drift|A|WARN", "a3", T0.plus(Duration.ofMinutes(5)).minusMillis(1))).contains("a1");
    }

    @Test
    void aRepeatAfterTheWindowIsANewAlert() {
        DedupeWindow window = new DedupeWindow(Duration.ofMinutes(5), 100);
        window.firstOf("drift|A|WARN", "a1", T0);
        assertThat(window.firstOf("drift|A|WARN", "a2", T0.plus(Duration.ofMinutes(5)))).isEmpty();
        assertThat(window.firstOf("drift|A|WARN", "a3", T0.plus(Duration.ofMinutes(6)))).contains("a2");
    }

    @Test
    void otherSkusKindsAndLevelsAreOtherAlerts() {
        DedupeWindow window = new DedupeWindow(Duration.ofMinutes(5), 100);
        window.firstOf(Alert.dedupeKeyOf("drift", "A", AlertLevel.WARN), "a1", T0);
        assertThat(window.firstOf(Alert.dedupeKeyOf("drift", "A", AlertLevel.THROTTLE), "a2", T0)).isEmpty();
        assertThat(window.firstOf(Alert.dedupeKeyOf("drift", "B", AlertLevel.WARN), "a3", T0)).isEmpty();
        assertThat(window.firstOf(Alert.dedupeKeyOf("dead-letter", "A", AlertLevel.WARN), "a4", T0)).isEmpty();
    }

    @Test
    void aZeroWindowNeverSuppresses() {
        DedupeWindow window = new DedupeWindow(Duration.ZERO, 100);
        window.firstOf("k", "a1", T0);
        assertThat(window.firstOf("k", "a2", T0)).isEmpty();
    }

    @Test
    void staysWithinItsBoundForgettingTheOldestKey() {
        DedupeWindow window = new DedupeWindow(Duration.ofHours(1), 3);
        for (int i = 0; i < 10; i++) {
            window.firstOf("k" + i, "a" + i, T0.plusSeconds(i));
        }
        assertThat(window.size()).isEqualTo(3);
        assertThat(window.firstOf("k9", "again", T0.plusSeconds(20))).contains("a9");
        assertThat(window.firstOf("k0", "again", T0.plusSeconds(20))).isEmpty();
    }

    @Test
    void anAlertDedupesByKindSkuAndLevelAndShortensLongText() {
        Alert alert = Alert.of(AlertLevel.FREEZE, "drift", "SKU-1", "t".repeat(500), "d".repeat(5_000), T0);
        assertThat(alert.dedupeKey()).isEqualTo("drift|SKU-1|FREEZE");
        assertThat(alert.title()).hasSize(Alert.TITLE_LENGTH_MAX).endsWith("…");
        assertThat(alert.detail()).hasSize(Alert.DETAIL_LENGTH_MAX).endsWith("…");
        assertThat(Alert.of(AlertLevel.INFO, "backlog", (String) null, "t", null, T0).dedupeKey())
                .isEqualTo("backlog|-|INFO");
    }
}
