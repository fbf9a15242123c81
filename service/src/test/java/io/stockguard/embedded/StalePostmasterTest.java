package io.stockguard.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.embedded.StalePostmaster.Finding;
import io.stockguard.embedded.StalePostmaster.ProcessFacts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/** When a postmaster.pid names a server to stop before a start, and every case it must be left alone. */
class StalePostmasterTest {

    private static final Path DATA = Path.of("/srv/stockguard/data/postgres");
    private static final String POSTGRES = "/tmp/embedded-pg/PG-59e8/bin/postgres";
    private static final long PID = 4242;

    @Test
    void noPidFileIsACleanDirectory() {
        assertThat(inspect(Optional.empty(), false, pid -> fail())).isEqualTo(new Finding.Clean());
    }

    @Test
    void aFirstLineThatIsNoPidIsLeftToPostgres() {
        assertThat(inspect(Optional.of("not a pid"), false, pid -> fail()))
                .isEqualTo(new Finding.Unreadable("not a pid"));
        assertThat(inspect(Optional.of(""), false, pid -> fail())).isInstanceOf(Finding.Unreadable.class);
    }

    @Test
    void aPidThatIsNotRunningIsAStaleFileForPostgresToReplace() {
        assertThat(inspect(Optional.of("4242"), false, pid -> ProcessFacts.GONE))
                .isEqualTo(new Finding.NotRunning(PID));
    }

    @Test
    void thisVeryJvmIsNeverTakenForAPostmaster() {
        long own = ProcessHandle.current().pid();
        assertThat(inspect(Optional.of(Long.toString(own)), false, pid -> fail()))
                .isEqualTo(new Finding.NotRunning(own));
    }

    @Test
    void thePostmasterOfThisDirectoryIsOrphanedWhenNoServiceHoldsTheLock() {
        assertThat(inspect(Optional.of(" 4242 "), false, pid -> postmaster(Optional.of(DATA), "-D", DATA.toString())))
                .isEqualTo(new Finding.Orphaned(PID));
    }

    @Test
    void theDirectoryIsRecognisedByTheWorkingDirectoryOrByTheDashDArgumentAlone() {
        assertThat(inspect(Optional.of("4242"), false, pid -> postmaster(Optional.of(DATA), "-p", "5432")))
                .isEqualTo(new Finding.Orphaned(PID));
        assertThat(inspect(Optional.of("4242"), false, pid -> postmaster(Optional.empty(), "-D", DATA.toString())))
                .isEqualTo(new Finding.Orphaned(PID));
        assertThat(inspect(Optional.of("4242"), false, pid -> postmaster(Optional.empty(), "-D" + DATA + "/")))
                .isEqualTo(new Finding.Orphaned(PID));
    }

    @Test
    void aPostmasterThatALivingServiceStillHoldsIsLeftAlone() {
        Finding finding = inspect(Optional.of("4242"), true,
                pid -> postmaster(Optional.of(DATA), "-D", DATA.toString()));

        assertThat(finding).isInstanceOf(Finding.NotOurs.class);
        assertThat(((Finding.NotOurs) finding).why()).contains("running service", "epg-lock");
    }

    @Test
    void aReusedPidRunningAnotherProgramIsLeftAlone() {
        Finding finding = inspect(Optional.of("4242"), false, pid -> new ProcessFacts(true,
                List.of("/usr/bin/java", "-jar", "shop.jar", "-D", DATA.toString()), Optional.of(DATA)));

        assertThat(finding).isInstanceOf(Finding.NotOurs.class);
        assertThat(((Finding.NotOurs) finding).why()).contains("/usr/bin/java", "not a PostgreSQL server");
    }

    @Test
    void thePostmasterOfAnotherDirectoryIsLeftAlone() {
        Path other = Path.of("/srv/other/postgres");
        Finding finding = inspect(Optional.of("4242"), false, pid -> postmaster(Optional.of(other), "-D",
                other.toString()));

        assertThat(finding).isInstanceOf(Finding.NotOurs.class);
        assertThat(((Finding.NotOurs) finding).why()).contains("another directory", other.toString());
    }

    @Test
    void aPostmasterOfADirectoryWithTheSameNameElsewhereIsLeftAlone() {
        assertThat(inspect(Optional.of("4242"), false, pid -> postmaster(Optional.empty(), "-D", "data/postgres")))
                .as("a relative -D names no directory for certain").isInstanceOf(Finding.NotOurs.class);
        assertThat(inspect(Optional.of("4242"), false, pid -> postmaster(Optional.empty(), "-D",
                DATA + "-old"))).isInstanceOf(Finding.NotOurs.class);
    }

    @Test
    void aProcessWhoseCommandLineCannotBeReadIsLeftAlone() {
        Finding finding = inspect(Optional.of("4242"), false,
                pid -> new ProcessFacts(true, List.of(), Optional.of(DATA)));

        assertThat(finding).isInstanceOf(Finding.NotOurs.class);
        assertThat(((Finding.NotOurs) finding).why()).contains("cannot be read");
    }

    private static Finding inspect(Optional<String> pidLine, boolean locked, LongFunction<ProcessFacts> processes) {
        return StalePostmaster.inspect(DATA, pidLine, locked, pid -> {
            assertThat(pid).isEqualTo(PID);
            return processes.apply(pid);
        });
    }

    private static ProcessFacts postmaster(Optional<Path> workingDirectory, String... arguments) {
        List<String> line = new ArrayList<>(List.of(POSTGRES));
        line.addAll(List.of(arguments));
        return new ProcessFacts(true, line, workingDirectory);
    }

    private static ProcessFacts fail() {
        throw new AssertionError("no process should be looked at");
    }
}
