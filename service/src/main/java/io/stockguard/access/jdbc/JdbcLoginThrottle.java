package io.stockguard.access.jdbc;

import io.stockguard.access.LoginThrottle;
import io.stockguard.access.PeopleProperties;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/** The login throttle as the {@code login_throttle} table, so every instance counts the same failures. */
@Component
class JdbcLoginThrottle implements LoginThrottle {

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final SqlStatements sql;
    private final TransactionTemplate transactions;
    private final PeopleProperties properties;

    JdbcLoginThrottle(JdbcTemplate jdbc, SqlDialect dialect, TransactionTemplate transactions,
            PeopleProperties properties) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.sql = SqlStatements.load("access", dialect);
        this.transactions = transactions;
        this.properties = properties;
    }

    private record Row(int failures, Instant windowStartedAt, Instant throttledUntil) {
    }

    @Override
    public Optional<Instant> throttledUntil(String name, Instant now) {
        List<Instant> until = jdbc.query(sql.get("throttledUntil"),
                (rs, row) -> Timestamps.fromDatabase(rs, "throttled_until", dialect), name);
        return until.stream().filter(t -> t != null && t.isAfter(now)).findFirst();
    }

    @Override
    public Optional<Instant> recordFailure(String name, Instant now) {
        return transactions.execute(status -> {
            jdbc.update(sql.get("insertThrottleIfAbsent"), name, Timestamps.parameter(now, dialect));
            Row row = jdbc.queryForObject(sql.get("lockThrottle"), (rs, n) -> new Row(rs.getInt("failures"),
                    Timestamps.fromDatabase(rs, "window_started_at", dialect),
                    Timestamps.fromDatabase(rs, "throttled_until", dialect)), name);
            boolean windowPassed = row.windowStartedAt().plus(properties.loginFailureWindow()).isBefore(now);
            int failures = windowPassed ? 1 : row.failures() + 1;
            Instant windowStart = windowPassed ? now : row.windowStartedAt();
            Instant until = null;
            if (failures >= properties.loginFailuresMax()) {
                // Throttled: the count starts again once the throttle has passed.
                until = now.plus(properties.loginThrottle());
                failures = 0;
                windowStart = now;
            }
            jdbc.update(sql.get("updateThrottle"), failures, Timestamps.parameter(windowStart, dialect),
                    Timestamps.parameter(until, dialect), name);
            return Optional.ofNullable(until);
        });
    }

    @Override
    public void clear(String name) {
        jdbc.update(sql.get("clearThrottle"), name);
    }

    @Override
    public int sweep(Instant now) {
        return jdbc.update(sql.get("sweepThrottles"),
                Timestamps.parameter(now.minus(properties.loginFailureWindow()), dialect),
                Timestamps.parameter(now, dialect));
    }
}
