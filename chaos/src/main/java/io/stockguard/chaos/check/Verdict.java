package io.stockguard.chaos.check;

import java.util.List;
import java.util.NoSuchElementException;

/** Every rule's result; the history is valid when every rule passed. */
public record Verdict(List<RuleResult> results) {

    public Verdict {
        results = List.copyOf(results);
    }

    public boolean valid() {
        return results.stream().allMatch(RuleResult::passed);
    }

    public RuleResult result(String rule) {
        return results.stream().filter(r -> r.rule().equals(rule)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("no rule named " + rule));
    }

    public List<RuleResult> failures() {
        return results.stream().filter(r -> !r.passed()).toList();
    }
}
