/**
 * Stock levels for downstream systems: when a SKU sells out, comes back or runs low, subscribers
 * (search, product pages, marketing) hear it once, by signed webhook, at least once delivered. A
 * watcher follows the journal for SKUs that changed, reads their stock from the store that sells
 * them, and reports a change of level by moving the SKU's row in {@code stock_level}: whoever moves
 * it reports it, so a change is reported once however many instances run.
 */
@ApplicationModule(allowedDependencies = {"platform", "stock", "reservation", "journal"})
package io.stockguard.stocklevel;

import org.springframework.modulith.ApplicationModule;
