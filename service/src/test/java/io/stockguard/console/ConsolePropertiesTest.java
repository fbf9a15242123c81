package io.stockguard.console;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ConsolePropertiesTest {

    private static final ConsoleProperties.DriftChart DRIFT = new ConsoleProperties.DriftChart(200, 24, 0.5, 1, 3);

    @Test
    void refusesPageSizesOutOfRangeNamingTheSetting() {
        assertThatThrownBy(() -> new ConsoleProperties(0, 50, 500, 100, DRIFT, 100))
                .hasMessageContaining("stockguard.console.overview-skus-max");
        assertThatThrownBy(() -> new ConsoleProperties(100, 50, 500, 501, DRIFT, 100))
                .hasMessageContaining("stockguard.console.audit-page-size");
        assertThatThrownBy(() -> new ConsoleProperties(100, 50, 500, 100, DRIFT, 0))
                .hasMessageContaining("stockguard.console.dead-letters-shown");
    }

    @Test
    void refusesDriftThresholdsThatDoNotRise() {
        assertThatThrownBy(() -> new ConsoleProperties(100, 50, 500, 100,
                new ConsoleProperties.DriftChart(200, 24, 1, 1, 3), 100))
                .hasMessageContaining("warn-percent < throttle-percent < freeze-percent");
        assertThatThrownBy(() -> new ConsoleProperties(100, 50, 500, 100,
                new ConsoleProperties.DriftChart(0, 24, 0.5, 1, 3), 100))
                .hasMessageContaining("stockguard.console.drift.history-size");
    }
}
