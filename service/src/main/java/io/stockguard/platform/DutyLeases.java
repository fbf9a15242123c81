package io.stockguard.platform;

import java.net.InetAddress;
import java.time.Duration;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Leases for duties that one instance should do at a time, kept in the database every instance
 * shares. A holder renews on every round of its duty; when it dies, another instance takes over
 * once the lease has expired. The database's clock times every lease (the statements read it), so
 * an instance whose own clock is off, even by minutes, neither takes a lease early nor keeps one
 * late: the holder is checked by the row, and the expiry by the one clock all instances share.
 */
@Component
public class DutyLeases {

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final SqlStatements sql;
    private final String holder;

    DutyLeases(JdbcTemplate jdbc, SqlDialect dialect) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.sql = SqlStatements.load("duties", dialect);
        this.holder = hostName() + "/" + UUID.randomUUID();
    }

    /** This instance's name in the lease table. */
    public String holder() {
        return holder;
    }

    /** Takes or renews the duty's lease for {@code length}; true when this instance holds it now. */
    public boolean hold(String duty, Duration length) {
        Object until = length(length);
        if (jdbc.update(sql.get("take"), holder, until, duty, holder) == 1) {
            return true;
        }
        // First use of the duty anywhere: create the row, held by whoever creates it.
        return jdbc.update(sql.get("create"), duty, holder, until) == 1;
    }

    /** Gives the lease up at once (on shutdown), so another instance need not wait for it to expire. */
    public void release(String duty) {
        jdbc.update(sql.get("release"), duty, holder);
    }

    /** The lease's length as the statements take it: seconds on PostgreSQL, microseconds on MySQL. */
    private Object length(Duration length) {
        return switch (dialect) {
            case POSTGRESQL -> length.toNanos() / 1e9;
            case MYSQL -> length.toNanos() / 1_000;
        };
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
