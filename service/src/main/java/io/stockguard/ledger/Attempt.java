package io.stockguard.ledger;

/**
 * An event handed to the applier now, or one that waited for its bucket tried again. A retry's
 * caller was answered when it first came (it waits), so a rule that would refuse it to its caller
 * lets it wait on instead.
 */
enum Attempt {
    FIRST, RETRY
}
