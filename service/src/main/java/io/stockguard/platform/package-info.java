/**
 * Technical base shared by every module: error codes and problem responses, trace ids, the acting
 * caller, SQL dialects and named SQL files. It holds no inventory logic.
 */
@ApplicationModule(type = ApplicationModule.Type.OPEN)
package io.stockguard.platform;

import org.springframework.modulith.ApplicationModule;
