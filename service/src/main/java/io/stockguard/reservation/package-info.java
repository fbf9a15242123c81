/**
 * The hot path: reserve, confirm, cancel and expire orders, and the stock they hold. Every
 * operation is atomic per SKU bucket, never oversells (I1), is idempotent by order id (I3) and
 * journals its change in the same step that makes it (I2).
 */
@ApplicationModule(allowedDependencies = {"platform", "stock", "journal", "guard", "audit"})
package io.stockguard.reservation;

import org.springframework.modulith.ApplicationModule;
