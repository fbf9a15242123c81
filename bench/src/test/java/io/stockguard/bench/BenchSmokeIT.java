package io.stockguard.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code ./stockguard bench --smoke}: the whole harness at tiny sizes, so it cannot rot. */
class BenchSmokeIT {

    @Test
    void smokeRunWritesEveryReportAndStockGuardNeverOversells() throws Exception {
        Path folder = Bench.run(BenchOptions.parse("--smoke", "--out=target/bench-smoke"));

        assertThat(folder.resolve("report.html")).exists();
        assertThat(Files.readString(folder.resolve("report.html"))).contains("<svg", "stockguard-db", "redis-lua",
                "stockguard-redis", "stockguard-redis-wait1", "stockguard-kafka", "stockguard-db-http",
                "stockguard-redis-http", "stockguard-redis-wait1-http", "stockguard-kafka-http", "lean client");
        assertThat(Files.readString(folder.resolve("summary.md"))).contains("| hot-sku", "| catalogue",
                "| mixed-reads", "| sku-reads", "counts the queries", "Against the HTTP ceiling",
                "| hot-sku | 4 | stockguard-db-http |", "| sku-reads | 4 | stockguard-redis-http |");
        JsonNode results = JsonMapper.builder().build().readTree(folder.resolve("results.json").toFile())
                .get("results");
        // 19 contenders, 5 of them over HTTP (the ceiling among them), in each of 4 scenarios.
        assertThat(results.size()).isEqualTo(4 * 19);
        for (JsonNode result : results) {
            if (result.get("scenario").asString().equals("sku-reads")) {
                // Stock queries only: the row counts the queries, every one of them answered.
                assertThat(result.get("attempts").asLong()).as(result.toString()).isEqualTo(500);
                assertThat(result.get("reads").asLong()).as(result.toString()).isEqualTo(500);
                assertThat(result.get("sold").asLong()).as(result.toString()).isZero();
            }
            if (result.get("contender").asString().endsWith("-http")) {
                assertThat(result.get("notes").asString()).as(result.toString()).contains("HTTP connections opened");
            }
            if (result.get("family").asString().equals("stockguard")) {
                assertThat(result.get("oversoldUnits").asLong()).as(result.toString()).isZero();
                assertThat(result.get("unaccountedUnits").asLong()).as(result.toString()).isZero();
                assertThat(result.get("errors").asLong()).as(result.toString()).isZero();
                assertThat(result.get("percentOfCeiling").asDouble()).as(result.toString()).isPositive();
                assertThat(result.get("notes").asString()).as(result.toString())
                        .contains(result.get("contender").asString().equals(Report.HTTP_CEILING)
                                ? "kept in memory only" : "all held in the database")
                        .doesNotContain("DIFFERS");
            }
            if (result.get("contender").asString().startsWith("stockguard-redis")
                    || result.get("contender").asString().startsWith("stockguard-kafka")) {
                assertThat(result.get("notes").asString()).as(result.toString())
                        .contains(", 0 by the database fallback");
            }
            if (result.get("contender").asString().startsWith("stockguard-kafka")) {
                assertThat(result.get("notes").asString()).as(result.toString())
                        .contains(", 0 to the database fallback", "journal apply lag p50");
            }
        }
    }

    /** The StockGuard Java client instead of the lean one, and a JFR recording of each measured run. */
    @Test
    void stockGuardClientAndProfiles() throws Exception {
        Path folder = Bench.run(BenchOptions.parse("--smoke", "--http-client=client", "--profile",
                "--scenario=hot-sku,sku-reads", "--contender=stockguard-db-http,redis-lua",
                "--out=target/bench-smoke"));

        assertThat(Files.readString(folder.resolve("report.html"))).contains("StockGuard Java client");
        JsonNode results = JsonMapper.builder().build().readTree(folder.resolve("results.json").toFile())
                .get("results");
        assertThat(results.size()).isEqualTo(2 * 2);
        for (JsonNode result : results) {
            assertThat(result.get("errors").asLong()).as(result.toString()).isZero();
            assertThat(result.get("oversoldUnits").asLong()).as(result.toString()).isZero();
            if (result.get("scenario").asString().equals("hot-sku")) {
                // Sales and sold-outs both counted: Reserved and INSUFFICIENT_STOCK read as such.
                assertThat(result.get("sold").asLong()).as(result.toString()).isPositive();
                if (!result.get("stoppedEarly").asBoolean()) {
                    assertThat(result.get("sold").asLong()).as(result.toString()).isEqualTo(200);
                    assertThat(result.get("soldOut").asLong()).as(result.toString()).isEqualTo(800);
                }
            }
        }
        for (String run : new String[] {"hot-sku-stockguard-db-http-4-1", "sku-reads-redis-lua-4-1"}) {
            assertThat(folder.resolve(run + ".jfr")).isNotEmptyFile();
        }
    }
}
