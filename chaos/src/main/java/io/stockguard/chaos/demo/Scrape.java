package io.stockguard.chaos.demo;

import io.stockguard.chaos.workload.Api;
import io.stockguard.chaos.workload.Target;
import java.util.List;
import java.util.OptionalDouble;

/** A metric read from the instances' Prometheus scrapes, summed over its series and instances. */
final class Scrape {

    private Scrape() {
    }

    /** The sum over every instance that answered; empty when none did. */
    static OptionalDouble sum(Api api, List<Target> instances, String metric) {
        double total = 0;
        boolean any = false;
        for (Target instance : instances) {
            OptionalDouble value = api.metrics(instance.baseUrl()).map(text -> sum(text, metric))
                    .orElse(OptionalDouble.empty());
            if (value.isPresent()) {
                total += value.getAsDouble();
                any = true;
            }
        }
        return any ? OptionalDouble.of(total) : OptionalDouble.empty();
    }

    /** The largest of the instances' sums (a figure each instance reports for the whole cluster). */
    static OptionalDouble max(Api api, List<Target> instances, String metric) {
        OptionalDouble largest = OptionalDouble.empty();
        for (Target instance : instances) {
            OptionalDouble value = api.metrics(instance.baseUrl()).map(text -> sum(text, metric))
                    .orElse(OptionalDouble.empty());
            if (value.isPresent() && (largest.isEmpty() || value.getAsDouble() > largest.getAsDouble())) {
                largest = value;
            }
        }
        return largest;
    }

    /** The sum of every series of {@code metric} in one scrape; empty when it has none. */
    static OptionalDouble sum(String scrape, String metric) {
        double total = 0;
        boolean any = false;
        for (String line : scrape.split("\n")) {
            if (line.startsWith(metric + " ") || line.startsWith(metric + "{")) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                any = true;
            }
        }
        return any ? OptionalDouble.of(total) : OptionalDouble.empty();
    }
}
