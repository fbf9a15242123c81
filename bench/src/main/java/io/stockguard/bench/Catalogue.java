package io.stockguard.bench;

import java.util.List;
import java.util.stream.IntStream;

/** The SKUs a scenario sells and the stock each starts with. */
public record Catalogue(List<String> skus, long unitsPerSku) {

    public static Catalogue of(String prefix, int size, long unitsPerSku) {
        List<String> skus = size == 1 ? List.of(prefix)
                : IntStream.range(0, size).mapToObj(i -> prefix + "-" + i).toList();
        return new Catalogue(skus, unitsPerSku);
    }

    public int size() {
        return skus.size();
    }

    public long totalUnits() {
        return unitsPerSku * skus.size();
    }
}
