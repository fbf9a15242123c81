package io.stockguard.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.ConsolePeople;
import io.stockguard.testing.ConsoleSession;
import io.stockguard.testing.Ids;
import io.stockguard.testing.RunningService;
import io.stockguard.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The console's catalogue page: what each import did, the lines it refused, and the export for operators. */
class ConsoleCatalogueIT {

    @Test
    void theCataloguePageShowsEachImportWithItsFailedLinesAndOffersTheExportToOperators() {
        try (RunningService service = RunningService.start(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL),
                ConsolePeople.settings())) {
            String prefix = Ids.sku("page") + "-";
            JsonNode job = service.admin().importCatalogue(
                    "sku,total\n" + prefix + "a,5\n" + prefix + "b,many\n" + prefix + "gone,0\n", "text/csv");
            String jobId = job.get("jobId").asString();

            ConsoleSession operator = new ConsoleSession(service.baseUrl());
            operator.login(ConsolePeople.OPERATOR);
            ConsoleSession.Page page = operator.get("/console/catalogue");
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.body()).contains("data-job=\"" + jobId + "\"", "data-selected=\"" + jobId + "\"",
                    "1 lines failed", prefix + "b", "total: must be a whole number, not &#39;many&#39;",
                    "data-action=\"export\"");
            assertThat(operator.get("/console/catalogue?job=" + jobId).body()).contains("Import " + jobId);
            assertThat(operator.get("/console/catalogue?job=nope").body()).contains("No import nope.");
            assertThat(operator.get("/api/v1/admin/skus:import/" + jobId).status()).as("operators follow imports")
                    .isEqualTo(200);
            assertThat(operator.json("POST", "/api/v1/admin/skus:import", "{}", operator.csrfToken("/console/catalogue"))
                    .status()).as("only admins send them").isEqualTo(403);
            ConsoleSession.Page export = operator.get("/api/v1/admin/skus:export?format=csv");
            assertThat(export.status()).isEqualTo(200);
            assertThat(export.body()).startsWith("sku,total,buckets,safetyStock,lowStockThreshold,limitPerCustomer\n")
                    .contains(prefix + "a,5,8,0,,0\n");

            // The overview's sold-out filter, on the page and in its JSON twin.
            assertThat(operator.get("/console?filter=" + prefix + "&soldOut=true").body())
                    .contains(prefix + "gone<", "sold out only").doesNotContain(prefix + "a<");
            assertThat(operator.get("/console?filter=" + prefix).body()).contains(prefix + "gone<", prefix + "a<");
            JsonNode soldOut = service.admin().send("GET", "/api/v1/admin/skus?soldOut=true&filter=" + prefix, null)
                    .body().get("skus");
            assertThat(soldOut).hasSize(1);
            assertThat(soldOut.get(0).get("skuId").asString()).isEqualTo(prefix + "gone");

            ConsoleSession viewer = new ConsoleSession(service.baseUrl());
            viewer.login(ConsolePeople.VIEWER);
            String seen = viewer.get("/console/catalogue").body();
            assertThat(seen).contains("data-job=\"" + jobId + "\"", "id=\"why-export\"")
                    .doesNotContain("href=\"/api/v1/admin/skus:export");
            assertThat(viewer.get("/api/v1/admin/skus:export").status()).isEqualTo(403);
        }
    }
}
