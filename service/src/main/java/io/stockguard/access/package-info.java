/**
 * Who may call: order services with API keys (reservation API), operators with admin keys (the
 * admin API). No request without a valid key is served, apart from health and API docs.
 */
@ApplicationModule(allowedDependencies = {"platform"})
package io.stockguard.access;

import org.springframework.modulith.ApplicationModule;
