/**
 * Who may call and what they may change: order services with API keys (reservation API), people
 * logged in to the console with a role (viewer, operator, admin), and operators' scripts with
 * admin keys. No request without a valid key or session is served, apart from health and API docs.
 */
@ApplicationModule(allowedDependencies = {"platform", "audit"})
package io.stockguard.access;

import org.springframework.modulith.ApplicationModule;
