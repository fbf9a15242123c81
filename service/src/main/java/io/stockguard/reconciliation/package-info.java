/**
 * Reconciliation: a probe that measures the exact drift between the hot store and the database
 * ({@code R - D - (J - A)}, zero under any load in a correct system, I4), catches a hot store that
 * lost writes (I5), and answers with warn, throttle or freeze; plus heal (drain and rebase). In the
 * database tier it checks the ledger's own invariant instead. It never blocks the hot path: one
 * atomic snapshot per SKU, bounded work per cycle, on its own thread.
 */
@ApplicationModule(allowedDependencies = {"platform", "stock", "reservation", "hotstore", "guard", "audit"})
package io.stockguard.reconciliation;

import org.springframework.modulith.ApplicationModule;
