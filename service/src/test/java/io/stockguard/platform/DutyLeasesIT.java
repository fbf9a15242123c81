package io.stockguard.platform;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.RunningService;
import io.stockguard.testkit.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Duty leases are timed by the database's clock, not by the instance's: an instance whose clock
 * runs two minutes ahead (the chaos suite's clock-forward) neither takes a lease another instance
 * still holds nor writes a lease that outlives its length. The leases of another holder are
 * written here by SQL against the database's own clock.
 */
class DutyLeasesIT {

    private static final String DUTY = "clock-test";

    @TempDir
    Path home;

    @ParameterizedTest
    @EnumSource(TestDatabase.Kind.class)
    void anInstanceWhoseClockRunsAheadTakesNoLeaseEarlyAndHoldsNoneLonger(TestDatabase.Kind kind) throws Exception {
        Path offset = home.resolve("clock-offset");
        Files.writeString(offset, Duration.ofMinutes(2).toString());
        try (RunningService ahead = RunningService.start(TestDatabase.fresh(kind),
                Map.of("stockguard.testing.clock-offset-file", offset.toString()))) {
            DutyLeases leases = ahead.bean(DutyLeases.class);
            boolean postgres = kind == TestDatabase.Kind.POSTGRESQL;
            String now = postgres ? "clock_timestamp()" : "UTC_TIMESTAMP(6)";
            ahead.jdbc().update("INSERT INTO duty_lease (duty, holder, expires_at) VALUES (?, 'the-other-instance', "
                    + (postgres ? now + " + INTERVAL '30 seconds'" : "TIMESTAMPADD(SECOND, 30, " + now + ")") + ")",
                    DUTY);

            assertThat(leases.hold(DUTY, Duration.ofSeconds(15))).as("taken while the other's lease runs 30 s more")
                    .isFalse();
            assertThat(holder(ahead)).isEqualTo("the-other-instance");

            ahead.jdbc().update("UPDATE duty_lease SET expires_at = "
                    + (postgres ? now + " - INTERVAL '1 second'" : "TIMESTAMPADD(SECOND, -1, " + now + ")")
                    + " WHERE duty = ?", DUTY);
            assertThat(leases.hold(DUTY, Duration.ofSeconds(15))).as("taken once the other's lease ran out").isTrue();
            assertThat(holder(ahead)).isEqualTo(leases.holder());
            double left = ahead.jdbc().queryForObject(postgres
                    ? "SELECT EXTRACT(EPOCH FROM expires_at - clock_timestamp()) FROM duty_lease WHERE duty = ?"
                    : "SELECT TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), expires_at) / 1e6 FROM duty_lease WHERE duty = ?",
                    Double.class, DUTY);
            assertThat(left).as("seconds the lease has left by the database's clock").isBetween(5.0, 15.0);

            leases.release(DUTY);
            assertThat(ahead.jdbc().queryForObject("SELECT COUNT(*) FROM duty_lease WHERE duty = ? AND expires_at < "
                    + now, Integer.class, DUTY)).as("released: expired at once").isEqualTo(1);
        }
    }

    private static String holder(RunningService service) {
        return service.jdbc().queryForObject("SELECT holder FROM duty_lease WHERE duty = ?", String.class, DUTY);
    }
}
