package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Op;
import java.util.Collection;

/** A rule's findings: how many, and the first one written out as a counter-example. */
final class Violations {

    private final String rule;
    private int count;
    private String first = "";

    Violations(String rule) {
        this.rule = rule;
    }

    /** Records a violation: what is wrong, and the operations that show it. */
    void add(String what, Collection<Op> ops) {
        if (count++ == 0) {
            first = ops.isEmpty() ? what : what + "\n" + OpText.lines(ops);
        }
    }

    int count() {
        return count;
    }

    boolean none() {
        return count == 0;
    }

    RuleResult result(String summary) {
        return new RuleResult(rule, count == 0, summary, first, count);
    }
}
