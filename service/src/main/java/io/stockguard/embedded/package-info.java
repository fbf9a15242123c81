/**
 * The embedded tier's runtime: a real PostgreSQL started from binaries shipped as a Maven
 * artifact, with its data and generated credentials under the data directory. Active only when
 * no external database is configured.
 */
@ApplicationModule(allowedDependencies = {"platform"})
package io.stockguard.embedded;

import org.springframework.modulith.ApplicationModule;
