package io.stockguard.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Ids;
import io.stockguard.testing.ServiceJar;
import io.stockguard.testkit.ServiceProcess;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded tier after a {@code kill -9} of its service, as the service jar runs for real: the
 * PostgreSQL server it started outlives it and holds the data directory, and the next start on
 * that directory must stop that server and come up with the stock it had. Then the same with the
 * server killed as well, which leaves only a stale postmaster.pid behind.
 */
class KilledServiceRestartIT {

    @TempDir
    Path data;

    @Test
    void aServiceKilledWithKillNineStartsAgainOnItsDataDirectoryWithItsStock() throws Exception {
        Path postgres = data.resolve("postgres");
        String sku = Ids.sku("killed");
        List<ServiceProcess> started = new ArrayList<>();
        Set<Long> postmasters = new LinkedHashSet<>();
        try {
            ServiceProcess first = start(started);
            assertThat(ServiceJar.client(first).putSku(sku, 100).status()).isEqualTo(201);
            assertThat(ServiceJar.client(first).reserve(Ids.order("before-kill"), new Line(sku, 3)).status()).isEqualTo(201);
            long orphan = postmasterPid(postgres).orElseThrow();
            postmasters.add(orphan);

            first.kill();
            assertThat(alive(orphan)).as("the postmaster outlives its killed service (the case at hand)").isTrue();

            long restarting = System.nanoTime();
            ServiceProcess second = start(started);
            System.out.printf("restart on the data directory of a killed service: healthy in %d ms%n",
                    (System.nanoTime() - restarting) / 1_000_000);
            assertThat(alive(orphan)).as("the orphaned postmaster is stopped").isFalse();
            assertThat(second.output()).contains("(pid " + orphan + ") is still running from a service that was killed")
                    .contains("stopped the stale PostgreSQL server");
            assertStock(ServiceJar.client(second), sku);

            // The server dies with its service this time: only its postmaster.pid is left behind.
            long dead = postmasterPid(postgres).orElseThrow();
            postmasters.add(dead);
            second.kill();
            stopPostmaster(dead, postgres);
            assertThat(postgres.resolve(StalePostmaster.PID_FILE)).exists();
            ServiceProcess third = start(started);
            assertThat(third.output()).contains("names pid " + dead + ", which is not running");
            assertStock(ServiceJar.client(third), sku);
        } finally {
            // Stopped gracefully, a service stops its own server; whatever server of this data
            // directory is left after that is stopped by its pid.
            started.forEach(ServiceProcess::close);
            postmasterPid(postgres).ifPresent(postmasters::add);
            for (long pid : postmasters) {
                stopPostmaster(pid, postgres);
            }
        }
    }

    private ServiceProcess start(List<ServiceProcess> started) {
        ServiceProcess process = ServiceJar.startEmbedded(data, Map.of());
        started.add(process);
        return process;
    }

    private static void assertStock(StockGuardClient client, String sku) {
        StockGuardClient.Response stock = client.sku(sku);
        assertThat(stock.status()).as("the SKU created before the kill").isEqualTo(200);
        assertThat(List.of(stock.number("available"), stock.number("reserved"), stock.number("sold")))
                .as("available, reserved, sold").containsExactly(97L, 3L, 0L);
    }

    private static Optional<Long> postmasterPid(Path postgres) throws IOException {
        Path file = postgres.resolve(StalePostmaster.PID_FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        return Files.readAllLines(file).stream().findFirst().map(String::strip).map(Long::parseLong);
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isPresent();
    }

    /** Kills the postmaster and the servers it forked, only if the pid still is this directory's postmaster. */
    private static void stopPostmaster(long pid, Path postgres) throws Exception {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (handle.isEmpty() || !commandLine(pid).contains(postgres.toString())) {
            return;
        }
        List<ProcessHandle> all = new ArrayList<>(handle.get().children().toList());
        all.add(handle.get());
        all.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle process : all) {
            process.onExit().get(30, TimeUnit.SECONDS);
        }
    }

    private static String commandLine(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.UTF_8)
                    .replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }
}
