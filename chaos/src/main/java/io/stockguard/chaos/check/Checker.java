package io.stockguard.chaos.check;

import io.stockguard.chaos.history.History;
import java.util.List;

/**
 * Judges a history against StockGuard's invariants, one {@link Rule} each. Plain Java: it reads
 * the history and nothing else, so a history file can be re-checked long after its run.
 *
 * <pre>{@code
 * Verdict verdict = new Checker().check(History.read(file), CheckOptions.defaults(faultsPlanned));
 * TextReport.write(dir.resolve("report.txt"), history, verdict, "full tier, seed 42, profile kill-redis");
 * HtmlReport.write(dir.resolve("report.html"), history, verdict, "full tier, seed 42, profile kill-redis");
 * }</pre>
 */
public final class Checker {

    private final List<Rule> rules = List.of(new NoLostAck(), new NotAppliedMeansNotApplied(), new Idempotency(),
            new ReadYourWrites(), new Bank(), new Drift(), new Liveness(), new CustomerLimit(), new ClearAnswers());

    public Verdict check(History history, CheckOptions options) {
        Evidence evidence = Evidence.of(history);
        return new Verdict(rules.stream().map(rule -> judge(rule, evidence, options)).toList());
    }

    /** The rules' names, in the order the verdict lists them. */
    public List<String> ruleNames() {
        return rules.stream().map(Rule::name).toList();
    }

    /** A rule that cannot judge (a history it did not expect) fails with the reason instead of hiding the others. */
    private static RuleResult judge(Rule rule, Evidence evidence, CheckOptions options) {
        try {
            return rule.check(evidence, options);
        } catch (RuntimeException e) {
            return new RuleResult(rule.name(), false, "the rule could not judge this history: " + e, "", 1);
        }
    }
}
