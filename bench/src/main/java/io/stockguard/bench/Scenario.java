package io.stockguard.bench;

import java.util.Random;

/**
 * A workload: a catalogue and a fixed sequence of requests (which SKU, reservation or read), the
 * same for every contender, so contenders differ only in how they take stock.
 *
 * @param readShare the share of the requests that are stock queries: 0 none, 1 nothing else
 */
public record Scenario(String name, String description, Catalogue catalogue, int requests, double zipfExponent,
        double readShare, long seed) {

    /** The post-mortem's hot SKU: 8,000 units, 126,000 requests in the first three minutes. */
    public static Scenario hotSku(long units, int requests) {
        return new Scenario("hot-sku", "one SKU of " + units + " units, " + requests + " reservations",
                Catalogue.of("HOT", 1, units), requests, 0, 0, 1);
    }

    /** A whole catalogue with Zipf-distributed demand: a few SKUs are hot, most are quiet. */
    public static Scenario catalogue(int skus, long unitsPerSku, int requests) {
        return new Scenario("catalogue", skus + " SKUs of " + unitsPerSku + " units, " + requests
                + " reservations, Zipf(1.1)", Catalogue.of("SKU", skus, unitsPerSku), requests, 1.1, 0, 2);
    }

    /** The hot SKU with the second wave's stock queries mixed in. */
    public static Scenario mixedReads(long units, int reservations) {
        return new Scenario("mixed-reads", "one SKU of " + units + " units, " + reservations
                + " reservations + 2.3 stock queries each", Catalogue.of("HOT", 1, units),
                (int) Math.round(reservations * 3.3), 0, 2.3 / (1 + 2.3), 3);
    }

    /**
     * The hot SKU's product page: stock queries only, no reservation, so the rate at which the
     * service answers "how many are left" compares with the rate at which it sells.
     */
    public static Scenario skuReads(long units, int queries) {
        return new Scenario("sku-reads", "one SKU of " + units + " units, " + queries + " stock queries, no "
                + "reservations", Catalogue.of("HOT", 1, units), queries, 0, 1, 4);
    }

    /** Whether the scenario sends stock queries only. */
    public boolean readsOnly() {
        return readShare >= 1;
    }

    /** The request plan: per request, the SKU index, or -1 - index for a read of that SKU. */
    public int[] plan() {
        Random random = new Random(seed);
        Zipf zipf = catalogue.size() > 1 ? new Zipf(catalogue.size(), zipfExponent) : null;
        int[] plan = new int[requests];
        for (int i = 0; i < requests; i++) {
            int sku = zipf == null ? 0 : zipf.sample(random);
            plan[i] = random.nextDouble() < readShare ? -1 - sku : sku;
        }
        return plan;
    }
}
