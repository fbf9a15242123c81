package io.stockguard.chaos.check;

/** One invariant the history must satisfy. Pure: it reads the evidence, nothing else. */
public sealed interface Rule permits NoLostAck, NotAppliedMeansNotApplied, Idempotency, ReadYourWrites, Bank, Drift,
        Liveness, CustomerLimit {

    String name();

    RuleResult check(Evidence evidence, CheckOptions options);
}
