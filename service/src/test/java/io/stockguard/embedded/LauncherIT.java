package io.stockguard.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.stockguard.testing.ConsoleSession;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testing.StockGuardClient.Response;
import io.stockguard.testing.StockGuardClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command as a new user runs it: {@code ./stockguard run} on the embedded
 * default, then the two-minute curl tour against it, then a restart that keeps stock and keys.
 */
class LauncherIT {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path data;

    @Test
    void launcherStartsTheEmbeddedTierAndServesTheReadmeTour() throws Exception {
        int port = freePort();
        Process first = launch(port);
        String sku = "LIPSTICK-01";
        Properties keys;
        try {
            StockGuardClient anonymous = awaitHealthy(port, first);
            keys = keys();
            String tour = runReadmeTour(port);
            assertThat(tour).contains("\"total\":8000", "\"state\":\"RESERVED\"", "\"state\":\"CONFIRMED\"",
                    "\"state\":\"CANCELLED\"", "\"after\":\"FROZEN\"", "\"after\":\"NORMAL\"",
                    "\"action\":\"FREEZE\"").doesNotContain("\"status\":5");
            assertThat(tour).contains("import DONE", "2/2 lines: 2 created");
            assertThat(tour).as("the per-customer limit of the tour").contains("\"customerId\":\"c-42\"");
            assertThat(Files.readString(data.resolve("catalogue.csv")))
                    .startsWith("sku,total,buckets,safetyStock,lowStockThreshold,limitPerCustomer\n")
                    .contains("\nLIPSTICK-01,8000,8,0,,2\n", "\nLIPSTICK-02,500,8,0,,0\n", "\nMASCARA-01,1200,4,0,,0\n");

            StockGuardClient orders = new StockGuardClient(anonymous.baseUrl(), secret(keys, "api-keys"));
            StockGuardClient admin = new StockGuardClient(anonymous.baseUrl(), secret(keys, "admin-keys"));
            assertThat(admin.freeze(sku, "tour").text("after")).isEqualTo("FROZEN");
            assertThat(orders.reserve("order-1003", new Line(sku, 1)).code()).isEqualTo("SKU_FROZEN");
            assertThat(admin.unfreeze(sku, "tour done").text("after")).isEqualTo("NORMAL");
            assertThat(orders.sku(sku).number("sold")).isEqualTo(2);

            String password = keys.getProperty("stockguard.embedded.console-password");
            assertThat(password).as("a console password generated for the trial").hasSizeGreaterThanOrEqualTo(12);
            ConsoleSession console = new ConsoleSession(anonymous.baseUrl());
            assertThat(console.login("admin", password).location()).endsWith("/console");
            assertThat(console.get("/console").body()).contains(sku, "admin");
        } finally {
            stop(first);
        }
        assertThat(output(first)).contains("StockGuard is ready at http://localhost:" + port)
                .contains(data.resolve("credentials.properties").toString())
                .contains("Console password generated on this first start: "
                        + keys.getProperty("stockguard.embedded.console-password"));

        Process second = launch(port);
        try {
            StockGuardClient anonymous = awaitHealthy(port, second);
            assertThat(keys()).as("keys survive a restart").isEqualTo(keys);
            StockGuardClient orders = new StockGuardClient(anonymous.baseUrl(), secret(keys, "api-keys"));
            Response stock = orders.sku(sku);
            // The tour sold 2 (order-1001) and holds 2 for customer c-42 (order-2001).
            assertThat(stock.number("available")).as("stock survives a restart").isEqualTo(7996);
            assertThat(stock.number("reserved")).isEqualTo(2);
            assertThat(stock.number("sold")).isEqualTo(2);
        } finally {
            stop(second);
        }
    }

    /**
     * Runs the README's "Two-minute tour" shell block as written, pointed at this instance's port
     * and data directory, so the README cannot drift from what the service does.
     */
    private String runReadmeTour(int port) throws IOException, InterruptedException {
        String readme = Files.readString(REPOSITORY.resolve("README.md"));
        int section = readme.indexOf("## Two-minute tour");
        int start = readme.indexOf("```bash", section) + "```bash".length();
        String script = readme.substring(start, readme.indexOf("```", start))
                .replace("http://localhost:8080", "http://localhost:" + port)
                .replace("data/credentials.properties", data.resolve("credentials.properties").toString())
                .replace("./stockguard ", REPOSITORY.resolve("stockguard") + " ");
        Path file = data.resolve("tour.sh");
        Files.writeString(file, "set -eu\n" + script);
        // In the data directory, so the files the tour writes (skus.csv, catalogue.csv) go there.
        Process tour = new ProcessBuilder("bash", file.toString()).directory(data.toFile()).redirectErrorStream(true)
                .start();
        String output = new String(tour.getInputStream().readAllBytes());
        assertThat(tour.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(tour.exitValue()).as(output).isZero();
        return output;
    }

    private Process launch(int port) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(REPOSITORY.resolve("stockguard").toString(), "run")
                .directory(REPOSITORY.toFile())
                .redirectErrorStream(true)
                .redirectOutput(data.resolve("output-" + System.nanoTime() + ".log").toFile());
        builder.environment().put("SERVER_PORT", Integer.toString(port));
        builder.environment().put("STOCKGUARD_DATA_DIR", data.toString());
        // The jar was built by this very build's package phase; the launcher must not start another.
        builder.environment().put("STOCKGUARD_NO_BUILD", "1");
        return builder.start();
    }

    private StockGuardClient awaitHealthy(int port, Process process) {
        StockGuardClient anonymous = new StockGuardClient("http://localhost:" + port, null);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> {
                    assertThat(process.isAlive()).as("launcher process").isTrue();
                    return "UP".equals(anonymous.send("GET", "/actuator/health", null).text("status"));
                });
        return anonymous;
    }

    private Properties keys() throws IOException {
        Properties keys = new Properties();
        try (InputStream in = Files.newInputStream(data.resolve("credentials.properties"))) {
            keys.load(in);
        }
        return keys;
    }

    private static String secret(Properties keys, String name) {
        String entry = keys.getProperty("stockguard.security." + name);
        return entry.substring(entry.indexOf(':') + 1);
    }

    private static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private String output(Process process) throws IOException {
        StringBuilder all = new StringBuilder();
        try (var files = Files.list(data)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("output-")).sorted().toList()) {
                all.append(Files.readString(file));
            }
        }
        return all.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
