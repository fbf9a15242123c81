package io.stockguard.stocklevel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LevelRulesTest {

    @Test
    void aSkuInStockIsReportedLowAtItsSafetyStockAndSoldOutAtZero() {
        assertThat(LevelRules.next(StockLevel.IN_STOCK, 11, 10, false))
                .isEqualTo(new LevelRules.Decision(StockLevel.IN_STOCK, null));
        assertThat(LevelRules.next(StockLevel.IN_STOCK, 10, 10, false))
                .isEqualTo(new LevelRules.Decision(StockLevel.LOW_STOCK, LevelChange.LOW_STOCK));
        assertThat(LevelRules.next(StockLevel.IN_STOCK, 0, 10, false))
                .isEqualTo(new LevelRules.Decision(StockLevel.SOLD_OUT, LevelChange.SOLD_OUT));
        assertThat(LevelRules.next(StockLevel.LOW_STOCK, 0, 10, false))
                .isEqualTo(new LevelRules.Decision(StockLevel.SOLD_OUT, LevelChange.SOLD_OUT));
    }

    @Test
    void withoutSafetyStockThereIsNoLowStock() {
        assertThat(LevelRules.next(StockLevel.IN_STOCK, 1, 0, false))
                .isEqualTo(new LevelRules.Decision(StockLevel.IN_STOCK, null));
    }

    @Test
    void aLowSkuIsReArmedOnlyAFifthAboveItsThreshold() {
        assertThat(LevelRules.rearmAbove(10)).isEqualTo(12);
        assertThat(LevelRules.rearmAbove(1)).isEqualTo(2);
        assertThat(LevelRules.next(StockLevel.LOW_STOCK, 12, 10, false))
                .as("hovering just above the threshold").isEqualTo(new LevelRules.Decision(StockLevel.LOW_STOCK, null));
        assertThat(LevelRules.next(StockLevel.LOW_STOCK, 13, 10, false))
                .isEqualTo(new LevelRules.Decision(StockLevel.IN_STOCK, null));
    }

    @Test
    void aSoldOutSkuIsReportedBackOnlyOnceItStayedAvailable() {
        assertThat(LevelRules.next(StockLevel.SOLD_OUT, 5, 10, false))
                .isEqualTo(new LevelRules.Decision(StockLevel.SOLD_OUT, null));
        assertThat(LevelRules.next(StockLevel.SOLD_OUT, 5, 10, true))
                .as("back, and low").isEqualTo(new LevelRules.Decision(StockLevel.LOW_STOCK, LevelChange.BACK_IN_STOCK));
        assertThat(LevelRules.next(StockLevel.SOLD_OUT, 50, 10, true))
                .isEqualTo(new LevelRules.Decision(StockLevel.IN_STOCK, LevelChange.BACK_IN_STOCK));
        assertThat(LevelRules.next(StockLevel.SOLD_OUT, 0, 10, true))
                .isEqualTo(new LevelRules.Decision(StockLevel.SOLD_OUT, null));
    }
}
