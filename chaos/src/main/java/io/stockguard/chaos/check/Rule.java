package io.stockguard.chaos.check;

/**
 * One invariant the history must satisfy. Pure: it reads the evidence, nothing else. Each rule
 * judges the evidence into its violations (the first written out as a counter-example) and says in
 * one line what it checked; the result is built here, the same way for every rule.
 */
public abstract sealed class Rule permits NoLostAck, NotAppliedMeansNotApplied, Idempotency, ReadYourWrites, Bank,
        Drift, Liveness, CustomerLimit, ClearAnswers {

    private final String name;

    Rule(String name) {
        this.name = name;
    }

    /** The rule's name in reports, e.g. {@code no-lost-ack}. */
    public final String name() {
        return name;
    }

    public final RuleResult check(Evidence evidence, CheckOptions options) {
        Violations violations = new Violations(name);
        String summary = judge(evidence, options, violations);
        return violations.result(summary);
    }

    /** Adds each violation the evidence shows to {@code violations}; answers the one-line summary. */
    abstract String judge(Evidence evidence, CheckOptions options, Violations violations);
}
