package io.stockguard.console;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ConsolePropertiesTest {

    @Test
    void refusesPageSizesOutOfRangeNamingTheSetting() {
        assertThatThrownBy(() -> new ConsoleProperties(0, 50, 500, 100))
                .hasMessageContaining("stockguard.console.overview-skus-max");
        assertThatThrownBy(() -> new ConsoleProperties(100, 50, 500, 501))
                .hasMessageContaining("stockguard.console.audit-page-size");
    }
}
