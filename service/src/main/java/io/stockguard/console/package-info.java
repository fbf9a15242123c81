/**
 * The operator console: people see every SKU, order and manual action, and stop, resume, correct
 * and repair selling in at most three steps. Every change goes through the same services, rules and
 * audit log as the admin API; the console adds no way around them.
 */
@ApplicationModule(allowedDependencies = {"platform", "stock", "reservation", "hotstore", "guard", "audit", "journal", "reconciliation", "alerting", "stocklevel",
        "access", "catalogue"})
package io.stockguard.console;

import org.springframework.modulith.ApplicationModule;
