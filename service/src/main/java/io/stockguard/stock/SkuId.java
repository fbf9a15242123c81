package io.stockguard.stock;

/** A stock keeping unit's identifier, as the shop's catalogue names it. */
public record SkuId(String value) implements Comparable<SkuId> {

    public SkuId {
        Identifiers.require("skuId", value);
    }

    public static SkuId of(String value) {
        return new SkuId(value);
    }

    @Override
    public int compareTo(SkuId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
