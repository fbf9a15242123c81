package io.stockguard.chaos.demo;

import java.util.ArrayList;
import java.util.List;

/** What each incident of the demo came to, in the order they were played; thread-safe. */
final class Verdicts {

    record Verdict(String incident, boolean passed, String detail) {
    }

    private final List<Verdict> verdicts = new ArrayList<>();

    synchronized void record(String incident, boolean passed, String detail) {
        verdicts.add(new Verdict(incident, passed, detail));
        System.out.printf("%s %-22s %s%n", passed ? "  PASSED" : "  FAILED", incident, detail);
    }

    synchronized List<Verdict> all() {
        return List.copyOf(verdicts);
    }

    synchronized boolean allPassed() {
        return verdicts.stream().allMatch(Verdict::passed);
    }
}
