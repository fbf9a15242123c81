package io.stockguard.stocklevel;

/**
 * The one place that decides a SKU's next level and what, if anything, is reported. Hysteresis
 * keeps a SKU that hovers around a boundary from storming subscribers: a sold-out SKU is reported
 * back only once it has stayed available for a while (the caller says whether it has), and a
 * low-stock report is re-armed only once available stock climbs a fifth above the threshold.
 */
final class LevelRules {

    /** @param report what to tell subscribers; null for a move they do not hear of */
    record Decision(StockLevel level, LevelChange report) {
    }

    private LevelRules() {
    }

    /** The level a SKU's available stock puts it at, on its own. */
    static StockLevel initial(long available, long lowStock) {
        if (available <= 0) {
            return StockLevel.SOLD_OUT;
        }
        return lowStock > 0 && available <= lowStock ? StockLevel.LOW_STOCK : StockLevel.IN_STOCK;
    }

    /**
     * @param reported the level subscribers were last told (or the baseline)
     * @param lowStock the SKU's low-stock threshold (or safety stock): at or below it (and above 0)
     *     the SKU is low; 0 switches low-stock reports off
     * @param backLongEnough a sold-out SKU has been available for {@code back-in-stock-after}
     */
    static Decision next(StockLevel reported, long available, long lowStock, boolean backLongEnough) {
        return switch (reported) {
            case SOLD_OUT -> available > 0 && backLongEnough
                    ? new Decision(initial(available, lowStock), LevelChange.BACK_IN_STOCK)
                    : new Decision(StockLevel.SOLD_OUT, null);
            case IN_STOCK -> {
                if (available <= 0) {
                    yield new Decision(StockLevel.SOLD_OUT, LevelChange.SOLD_OUT);
                }
                yield lowStock > 0 && available <= lowStock ? new Decision(StockLevel.LOW_STOCK, LevelChange.LOW_STOCK)
                        : new Decision(StockLevel.IN_STOCK, null);
            }
            case LOW_STOCK -> {
                if (available <= 0) {
                    yield new Decision(StockLevel.SOLD_OUT, LevelChange.SOLD_OUT);
                }
                yield available > rearmAbove(lowStock) ? new Decision(StockLevel.IN_STOCK, null)
                        : new Decision(StockLevel.LOW_STOCK, null);
            }
        };
    }

    /** Above this, a SKU reported low is in stock again and may be reported low once more. */
    static long rearmAbove(long lowStock) {
        return lowStock + Math.max(1, (lowStock + 4) / 5);
    }
}
