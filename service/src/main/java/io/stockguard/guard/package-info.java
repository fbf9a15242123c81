/**
 * Guards on selling: a SKU's mode (normal, throttled, frozen). A freeze is absolute: once it
 * returns, no instance accepts a new reservation for the SKU (I6); queries, cancels and restocks
 * still work.
 */
@ApplicationModule(allowedDependencies = {"platform", "stock", "audit"})
package io.stockguard.guard;

import org.springframework.modulith.ApplicationModule;
