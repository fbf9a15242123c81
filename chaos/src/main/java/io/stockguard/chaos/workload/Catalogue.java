package io.stockguard.chaos.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SKUs of a run: one hot SKU that takes most of the orders (the flash-sale item) and a few
 * small ones that sell out, are restocked and adjusted.
 *
 * @param totals each SKU's total at creation
 * @param buckets each SKU's bucket count
 */
public record Catalogue(String hot, List<String> small, Map<String, Long> totals, Map<String, Integer> buckets) {

    public static Catalogue standard() {
        Map<String, Long> totals = new LinkedHashMap<>();
        Map<String, Integer> buckets = new LinkedHashMap<>();
        totals.put("HOT-1", 4_000L);
        buckets.put("HOT-1", 8);
        List<String> small = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            String sku = "SMALL-" + i;
            small.add(sku);
            totals.put(sku, 150L);
            buckets.put(sku, i % 2 == 0 ? 2 : 1);
        }
        return new Catalogue("HOT-1", List.copyOf(small), Map.copyOf(totals), Map.copyOf(buckets));
    }

    public List<String> all() {
        List<String> all = new ArrayList<>(List.of(hot));
        all.addAll(small);
        return all;
    }
}
