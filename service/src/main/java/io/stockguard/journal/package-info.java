/**
 * The journal: every stock change as an append-only event, durable before the change is
 * acknowledged (I2) and keyed by business identity so that it is applied exactly once (I3).
 */
@ApplicationModule(allowedDependencies = {"platform", "stock", "audit"})
package io.stockguard.journal;

import org.springframework.modulith.ApplicationModule;
