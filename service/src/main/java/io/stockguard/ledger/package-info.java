/**
 * The database's stock: the tables of SKUs, buckets, reservations and customer holds; the database
 * tier's ledger, whose reservations share transactions and are journaled in the transaction that
 * makes them (I1, I2); the applier that brings the tables up to date with what the Redis tiers
 * journaled, exactly once and in order (I3); and the record of which side sells each SKU. It knows
 * nothing of Redis.
 */
@ApplicationModule(allowedDependencies = {"platform", "stock", "reservation", "journal", "guard", "audit"})
package io.stockguard.ledger;

import org.springframework.modulith.ApplicationModule;
