package io.stockguard.chaos.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SKUs of a run: one hot SKU that takes most of the orders (the flash-sale item), a few
 * small ones that sell out, are restocked and adjusted, and one created with the others but first
 * ordered only seconds later (a SKU listed before its sale opens). The demo's has an everyday
 * item too, stocked far beyond the run, that new shoppers buy while the hot SKU may be sold out.
 *
 * @param everyday the plentiful SKU shoppers order, or null (the chaos suite has none)
 * @param totals each SKU's total at creation
 * @param buckets each SKU's bucket count
 */
public record Catalogue(String hot, List<String> small, String late, String everyday, Map<String, Long> totals,
        Map<String, Integer> buckets) {

    /**
     * The hot SKU's per-customer limit: low enough that a customer's orders, from every client
     * thread at once, keep running into it.
     */
    public static final int HOT_LIMIT_PER_CUSTOMER = 4;

    /** How long after the load starts the late SKU gets its first order. */
    public static final java.time.Duration LATE_FIRST_ORDER = java.time.Duration.ofSeconds(6);

    public static Catalogue standard() {
        return withHot("HOT-1", 4_000L, null);
    }

    /**
     * The demo's: the seeds' peak item, 8,000 units in 8 buckets, beside the same small SKUs and an
     * everyday item of 200,000 units.
     */
    public static Catalogue demo() {
        return withHot("PEAK-1", 8_000L, "DAILY-1");
    }

    private static Catalogue withHot(String hot, long hotTotal, String everyday) {
        Map<String, Long> totals = new LinkedHashMap<>();
        Map<String, Integer> buckets = new LinkedHashMap<>();
        totals.put(hot, hotTotal);
        buckets.put(hot, 8);
        List<String> small = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            String sku = "SMALL-" + i;
            small.add(sku);
            totals.put(sku, 150L);
            buckets.put(sku, i % 2 == 0 ? 2 : 1);
        }
        totals.put("LATE-1", 300L);
        buckets.put("LATE-1", 2);
        if (everyday != null) {
            totals.put(everyday, 200_000L);
            buckets.put(everyday, 4);
        }
        return new Catalogue(hot, List.copyOf(small), "LATE-1", everyday, Map.copyOf(totals), Map.copyOf(buckets));
    }

    public List<String> all() {
        List<String> all = new ArrayList<>(List.of(hot));
        all.addAll(small);
        all.add(late);
        if (everyday != null) {
            all.add(everyday);
        }
        return all;
    }
}
