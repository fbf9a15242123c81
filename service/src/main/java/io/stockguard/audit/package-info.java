/**
 * The audit log: every manual action with who, when, why, before and after, written in the same
 * transaction as the action, so there is no action without its record.
 */
@ApplicationModule(allowedDependencies = {"platform"})
package io.stockguard.audit;

import org.springframework.modulith.ApplicationModule;
