/**
 * The shared vocabulary of inventory: SKU and order identifiers, order lines, SKU modes and the
 * limits every module enforces. A value of these types is valid by construction.
 */
@ApplicationModule(type = ApplicationModule.Type.OPEN)
package io.stockguard.stock;

import org.springframework.modulith.ApplicationModule;
