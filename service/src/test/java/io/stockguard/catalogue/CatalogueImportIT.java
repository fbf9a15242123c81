package io.stockguard.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testkit.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The bulk catalogue on the database tier: an import creates new SKUs in batches exactly as the
 * API would create them one by one (buckets, journal), sets existing SKUs through the ledger (and
 * is refused where the API would refuse), reports each bad line without losing the good ones, and
 * is idempotent: run again, or fed its own export, it changes nothing.
 */
class CatalogueImportIT {

    private static final int NEW_SKUS = 2_500;

    @ParameterizedTest
    @EnumSource(value = TestDatabase.Kind.class, names = {"POSTGRESQL", "MARIADB"})
    void anImportCreatesSetsAndRefusesLineByLineAndRunsAgainWithoutChangingAnything(TestDatabase.Kind kind) {
        try (RunningService service = RunningService.start(TestDatabase.fresh(kind),
                Map.of("stockguard.catalogue.batch-size", "500"))) {
            StockGuardClient client = service.client();
            StockGuardClient admin = service.admin();
            String prefix = Ids.sku("imp") + "-";
            String held = prefix + "held";
            String kept = prefix + "kept";
            assertThat(client.putSku(held, 10, 2).status()).isEqualTo(201);
            assertThat(client.reserve(Ids.order("imp"), new Line(held, 3)).status()).isEqualTo(201);
            assertThat(client.putSku(kept, 7, 4).status()).isEqualTo(201);

            StringBuilder csv = new StringBuilder("sku,total,buckets,safetyStock\n");
            Map<String, long[]> expected = new HashMap<>();
            for (int i = 0; i < NEW_SKUS; i++) {
                long total = i % 97;
                int buckets = 1 + i % 8;
                long safety = i % 5;
                csv.append(prefix).append(i).append(',').append(total).append(',').append(buckets).append(',')
                        .append(safety).append('\n');
                expected.put(prefix + i, new long[] {total, buckets, safety});
            }
            // Lines 2..2501 are the new SKUs; then, by line number:
            csv.append(held).append(",20,,\n");                 // 2502 updated: 10 -> 20, 3 still held
            csv.append(kept).append(",7,4,\n");                 // 2503 unchanged
            csv.append(prefix).append("dup,5,2,0\n");           // 2504 created
            csv.append(prefix).append("dup,9,,\n");             // 2505 updated: the later line wins
            csv.append(prefix).append("bad-total,abc,,\n");     // 2506 INVALID_REQUEST
            csv.append("bad sku!,5,,\n");                       // 2507 INVALID_REQUEST
            csv.append(prefix).append("bad-buckets,5,99,\n");   // 2508 INVALID_REQUEST
            csv.append(held).append(",2,,\n");                  // 2509 INSUFFICIENT_STOCK: 3 are held
            csv.append(kept).append(",7,8,\n");                 // 2510 INVALID_REQUEST: buckets are fixed
            csv.append(prefix).append("extra,1,1,0,surplus\n"); // 2511 INVALID_REQUEST
            csv.append("\n");                                   // 2512 blank: not a line of data
            csv.append(prefix).append("negative,-1,,\n");       // 2513 INVALID_REQUEST

            JsonNode job = admin.importCatalogue(csv.toString(), "text/csv");
            assertThat(job.get("state").asString()).isEqualTo("DONE");
            assertThat(job.get("linesTotal").asLong()).isEqualTo(NEW_SKUS + 11);
            assertThat(job.get("linesDone").asLong()).isEqualTo(NEW_SKUS + 11);
            assertThat(job.get("created").asLong()).isEqualTo(NEW_SKUS + 1);
            assertThat(job.get("updated").asLong()).isEqualTo(2);
            assertThat(job.get("unchanged").asLong()).isEqualTo(1);
            assertThat(job.get("failed").asLong()).isEqualTo(7);
            Map<Long, String> errors = new HashMap<>();
            job.get("errors").forEach(e -> errors.put(e.get("line").asLong(), e.get("code").asString()));
            assertThat(errors).containsExactlyInAnyOrderEntriesOf(Map.of(2506L, "INVALID_REQUEST",
                    2507L, "INVALID_REQUEST", 2508L, "INVALID_REQUEST", 2509L, "INSUFFICIENT_STOCK",
                    2510L, "INVALID_REQUEST", 2511L, "INVALID_REQUEST", 2513L, "INVALID_REQUEST"));

            JdbcTemplate jdbc = service.jdbc();
            Map<String, long[]> stored = new HashMap<>();
            jdbc.query("SELECT s.sku_id, s.bucket_count, s.safety_stock, SUM(b.available), SUM(b.reserved + b.sold), "
                    + "COUNT(*) FROM sku s JOIN stock_bucket b ON b.sku_id = s.sku_id WHERE s.sku_id LIKE ? "
                    + "GROUP BY s.sku_id, s.bucket_count, s.safety_stock", rs -> {
                        stored.put(rs.getString(1), new long[] {rs.getLong(4) + rs.getLong(5), rs.getInt(2),
                                rs.getLong(3), rs.getLong(5), rs.getLong(6)});
                    }, prefix + "%");
            expected.forEach((sku, want) -> {
                long[] got = stored.get(sku);
                assertThat(got).as("SKU %s stored", sku).isNotNull();
                assertThat(new long[] {got[0], got[1], got[2], got[3], got[4]}).as("total, buckets, safety stock, "
                        + "held, bucket rows of %s", sku).containsExactly(want[0], want[1], want[2], 0, want[1]);
            });
            assertThat(stored).doesNotContainKeys(prefix + "bad-total", prefix + "bad-buckets", prefix + "extra",
                    prefix + "negative");
            assertThat(client.sku(held).number("total")).isEqualTo(20);
            assertThat(client.sku(held).number("reserved")).isEqualTo(3);
            assertThat(client.sku(prefix + "dup").number("total")).isEqualTo(9);
            assertThat(client.sku(kept).number("bucketCount")).isEqualTo(4);
            for (int i = 0; i < NEW_SKUS; i += 211) {
                LedgerChecks.assertCountersMatchJournal(jdbc, prefix + i);
            }
            LedgerChecks.assertCountersMatchJournal(jdbc, held);
            LedgerChecks.assertCountersMatchJournal(jdbc, prefix + "dup");
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM audit_log WHERE action = 'SKU_IMPORT' AND target = ?",
                    Long.class, "import:" + job.get("jobId").asString())).isEqualTo(1);

            // The same file again: nothing is created twice; only the SKU named twice moves (5, then 9).
            JsonNode again = admin.importCatalogue(csv.toString(), "text/csv");
            assertThat(again.get("created").asLong()).isZero();
            assertThat(again.get("updated").asLong()).isEqualTo(2);
            assertThat(again.get("unchanged").asLong()).isEqualTo(NEW_SKUS + 2);
            assertThat(again.get("failed").asLong()).isEqualTo(7);

            // The export is an import that changes nothing, in either format.
            StockGuardClient.Response exported = admin.send("GET", "/api/v1/admin/skus:export", null);
            assertThat(exported.status()).isEqualTo(200);
            assertThat(exported.contentType()).startsWith("text/csv");
            String export = exported.raw().body();
            assertThat(export).startsWith("sku,total,buckets,safetyStock,lowStockThreshold,limitPerCustomer\n")
                    .contains("\n" + prefix + "17,17,2,2,,0\n").contains("\n" + held + ",20,2,0,,0\n");
            long exportedLines = export.lines().count() - 1;
            JsonNode roundTrip = admin.importCatalogue(export, "text/csv");
            assertThat(roundTrip.get("unchanged").asLong()).isEqualTo(exportedLines);
            assertThat(roundTrip.get("created").asLong() + roundTrip.get("updated").asLong()
                    + roundTrip.get("failed").asLong()).isZero();
            String ndjson = admin.send("GET", "/api/v1/admin/skus:export?format=ndjson", null).raw().body();
            assertThat(ndjson.lines().count()).isEqualTo(exportedLines);
            assertThat(ndjson).contains("{\"sku\":\"" + held + "\",\"total\":20,\"buckets\":2,\"safetyStock\":0,"
                    + "\"limitPerCustomer\":0}");
            JsonNode jsonRoundTrip = admin.importCatalogue(ndjson, "application/x-ndjson");
            assertThat(jsonRoundTrip.get("unchanged").asLong()).isEqualTo(exportedLines);
            assertThat(jsonRoundTrip.get("failed").asLong()).isZero();
        }
    }

    @Test
    void jsonLinesImportAndRefusalsOfAWholeFileApplyNothing(@TempDir Path dir) throws Exception {
        RunningService service = RunningService.shared(TestDatabase.Kind.POSTGRESQL);
        StockGuardClient admin = service.admin();
        String prefix = Ids.sku("jsonl") + "-";
        String lines = "{\"sku\":\"" + prefix + "a\",\"total\":12,\"buckets\":3}\n"
                + "{\"sku\":\"" + prefix + "b\",\"total\":4,\"colour\":\"red\"}\n"
                + "{\"sku\":\"" + prefix + "c\",\"total\":2.5}\n"
                + "not json\n"
                + "{\"sku\":\"" + prefix + "d\",\"total\":8,\"safetyStock\":1}\n"
                + "{\"sku\":\"" + prefix + "f\",\"total\":\"8\"}\n"
                + "{\"sku\":\"" + prefix + "g\",\"total\":9,\"limitPerCustomer\":2,\"lowStockThreshold\":3}\n"
                + "{\"sku\":\"" + prefix + "h\",\"total\":9,\"limitPerCustomer\":-2}\n";
        JsonNode job = admin.importCatalogue(lines, "application/x-ndjson");
        assertThat(job.get("created").asLong()).isEqualTo(3);
        assertThat(job.get("failed").asLong()).isEqualTo(5);
        List<String> messages = new ArrayList<>();
        job.get("errors").forEach(e -> messages.add(e.get("line").asLong() + " " + e.get("message").asString()));
        assertThat(messages).hasSize(5);
        assertThat(messages.get(0)).startsWith("2 colour:");
        assertThat(messages.get(1)).startsWith("3 total: must be a whole number");
        assertThat(messages.get(2)).startsWith("4 line: is not a JSON object");
        assertThat(messages.get(3)).as("text where a number belongs").startsWith("6 total: must be a number");
        assertThat(service.client().sku(prefix + "a").number("bucketCount")).isEqualTo(3);
        assertThat(service.client().sku(prefix + "d").number("safetyStock")).isEqualTo(1);
        assertThat(messages.get(4)).startsWith("8 limitPerCustomer:");
        assertThat(service.client().sku(prefix + "g").number("limitPerCustomer")).isEqualTo(2);
        assertThat(service.client().sku(prefix + "g").number("lowStockThreshold")).isEqualTo(3);
        // An existing SKU's terms change by import too, the rest of it staying as it is.
        JsonNode update = admin.importCatalogue("sku,total,limitPerCustomer\n" + prefix + "d,8,1\n" + prefix
                + "g,9,0\n", "text/csv");
        assertThat(update.get("updated").asLong()).as("%s", update).isEqualTo(2);
        assertThat(service.client().sku(prefix + "d").number("limitPerCustomer")).isEqualTo(1);
        assertThat(service.client().sku(prefix + "d").number("safetyStock")).isEqualTo(1);
        assertThat(service.client().sku(prefix + "g").body().get("limitPerCustomer").isNull()).isTrue();
        assertThat(admin.importCatalogue("sku,total,limitPerCustomer\n" + prefix + "d,8,1\n", "text/csv")
                .get("unchanged").asLong()).isEqualTo(1);

        // Refused as a whole, before any line is applied: a wrong header, a wrong media type,
        // a caller that may not change totals.
        StockGuardClient.Response header = admin.sendRaw("POST", "/api/v1/admin/skus:import",
                "sku,total,colour\n" + prefix + "e,1,red\n", "text/csv");
        assertThat(header.status()).isEqualTo(400);
        assertThat(header.code()).isEqualTo("INVALID_REQUEST");
        assertThat(header.text("detail")).contains("unknown column 'colour'");
        StockGuardClient.Response openQuote = admin.sendRaw("POST", "/api/v1/admin/skus:import",
                "sku,total\n" + prefix + "e,1\n\"" + prefix + "k,2\n", "text/csv");
        assertThat(openQuote.status()).isEqualTo(400);
        assertThat(openQuote.code()).isEqualTo("INVALID_REQUEST");
        assertThat(openQuote.text("detail")).contains("cannot be read as CSV");
        StockGuardClient.Response type = admin.sendRaw("POST", "/api/v1/admin/skus:import",
                "{\"sku\":\"" + prefix + "e\",\"total\":1}", "application/json");
        assertThat(type.status()).isEqualTo(415);
        assertThat(type.code()).isEqualTo("UNSUPPORTED_MEDIA_TYPE");
        StockGuardClient.Response forbidden = service.client().sendRaw("POST", "/api/v1/admin/skus:import",
                "sku,total\n" + prefix + "e,1\n", "text/csv");
        assertThat(forbidden.status()).isEqualTo(403);
        assertThat(service.client().send("GET", "/api/v1/admin/skus:import", null).status()).isEqualTo(403);
        assertThat(service.client().sku(prefix + "e").status()).isEqualTo(404);
        StockGuardClient.Response unknown = admin.send("GET", "/api/v1/admin/skus:import/no-such-job", null);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.code()).isEqualTo("NOT_FOUND");
        assertThat(admin.send("GET", "/api/v1/admin/skus:import/" + "x".repeat(500), null).status()).isEqualTo(404);

        // The launcher: a progress bar, then the report; exit 1 because a line failed.
        Path file = dir.resolve("catalogue.csv");
        // As a spreadsheet saves it: a byte order mark, and lines ending CR LF.
        Files.writeString(file, "\uFEFFsku,total\r\n" + prefix + "cli-1,5\r\n" + prefix + "cli-2,6\r\n" + prefix
                + "cli-3,x\r\n");
        Process cli = new ProcessBuilder(Path.of("..").toAbsolutePath().normalize().resolve("stockguard").toString(),
                "import", file.toString(), "--url=" + service.baseUrl(), "--key=" + RunningService.ADMIN_KEY)
                .redirectErrorStream(true).start();
        String output = new String(cli.getInputStream().readAllBytes());
        assertThat(cli.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(output).contains("import DONE [##############################] 100% 3/3 lines: 2 created")
                .contains("1 lines failed").contains("\"line\":4");
        assertThat(cli.exitValue()).as(output).isEqualTo(1);
        assertThat(service.client().sku(prefix + "cli-2").number("total")).isEqualTo(6);
    }
}
