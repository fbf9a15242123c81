package io.stockguard.chaos.check;

/**
 * How one rule judged the history.
 *
 * @param rule the rule's name, e.g. {@code no-lost-ack}
 * @param passed no violation
 * @param summary one line: what was checked and what was found
 * @param counterExample the first violation: what is wrong, then the operations involved, one per line;
 *     empty when passed
 * @param violations how many violations (orders, SKUs, reads or windows, as the rule counts them)
 */
public record RuleResult(String rule, boolean passed, String summary, String counterExample, int violations) {
}
