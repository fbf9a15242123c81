/**
 * The hot path's API: reserve, confirm, cancel and expire orders, and the stock they hold. Every
 * operation is atomic per SKU bucket, never oversells (I1), is idempotent by order id (I3) and
 * journals its change in the same step that makes it (I2). The stores that keep these promises
 * ({@code hotstore} in Redis, {@code ledger} in the database) implement its ports; it names which
 * side sells a SKU ({@link io.stockguard.reservation.Ownership}).
 */
@ApplicationModule(allowedDependencies = {"platform", "stock"})
package io.stockguard.reservation;

import org.springframework.modulith.ApplicationModule;
