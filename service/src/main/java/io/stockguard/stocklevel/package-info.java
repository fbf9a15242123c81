/**
 * Stock levels for downstream systems: when a SKU sells out, comes back or runs low, subscribers
 * (search, product pages, marketing) hear it once, by signed webhook (and in the full tier on a public
 * Kafka topic), delivered at least once. A watcher follows the journal for SKUs that changed, reads
 * their stock as the database counts it (current on acknowledgement but in the full tier, where the
 * journal's lag is added), and reports a change of level by moving the SKU's row in
 * {@code stock_level}: whoever moves it reports it, so a change is reported once.
 */
@ApplicationModule(allowedDependencies = {"platform", "stock", "journal", "audit"})
package io.stockguard.stocklevel;

import org.springframework.modulith.ApplicationModule;
