/**
 * The catalogue in bulk: import tens of thousands of SKUs from a CSV or JSON-lines file as a job
 * any instance can report on, and export the catalogue in the same format. New SKUs are created
 * many to a transaction; a line that changes an existing SKU goes through the reservation API like
 * any other change, to whoever owns the SKU.
 */
@ApplicationModule(allowedDependencies = {"platform", "stock", "reservation", "hotstore", "audit", "journal"})
package io.stockguard.catalogue;

import org.springframework.modulith.ApplicationModule;
