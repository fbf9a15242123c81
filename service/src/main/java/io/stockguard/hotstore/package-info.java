/**
 * The hot store of the standard and full tiers: each SKU's stock in Redis, reserved, confirmed and
 * released by Lua scripts atomically per bucket, behind the history and epoch fences that keep a
 * copy from selling once it was lost or handed over; every change journaled before it is
 * acknowledged (I2), and a SKU handed to the database whenever Redis cannot be trusted with it.
 * It reaches the database only through the ports of {@code reservation} and {@code journal}.
 */
@ApplicationModule(allowedDependencies = {"platform", "stock", "reservation", "journal", "guard", "audit"})
package io.stockguard.hotstore;

import org.springframework.modulith.ApplicationModule;
