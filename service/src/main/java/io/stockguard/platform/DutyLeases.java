package io.stockguard.platform;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Leases for duties that one instance should do at a time, kept in the database every instance
 * shares. A holder renews on every round of its duty; when it dies, another instance takes over
 * once the lease has expired. Instances' clocks are compared through the lease's expiry, so the
 * lease must be much longer than the clocks' skew (seconds, not milliseconds).
 */
@Component
public class DutyLeases {

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final SqlStatements sql;
    private final Clock clock;
    private final String holder;

    DutyLeases(JdbcTemplate jdbc, SqlDialect dialect, Clock clock) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.sql = SqlStatements.load("duties", dialect);
        this.clock = clock;
        this.holder = hostName() + "/" + UUID.randomUUID();
    }

    /** This instance's name in the lease table. */
    public String holder() {
        return holder;
    }

    /** Takes or renews the duty's lease for {@code length}; true when this instance holds it now. */
    public boolean hold(String duty, Duration length) {
        Instant now = clock.instant();
        Object until = Timestamps.parameter(now.plus(length), dialect);
        if (jdbc.update(sql.get("take"), holder, until, duty, holder, Timestamps.parameter(now, dialect)) == 1) {
            return true;
        }
        // First use of the duty anywhere: create the row, held by whoever creates it.
        return jdbc.update(sql.get("create"), duty, holder, until) == 1;
    }

    /** Gives the lease up at once (on shutdown), so another instance need not wait for it to expire. */
    public void release(String duty) {
        jdbc.update(sql.get("release"), Timestamps.parameter(clock.instant().minusSeconds(1), dialect), duty, holder);
    }

    private static String hostName() {
        try {
            String name = InetAddress.getLocalHost().getHostName();
            return name.length() > 100 ? name.substring(0, 100) : name;
        } catch (java.io.IOException e) {
            return "unknown-host";
        }
    }
}
