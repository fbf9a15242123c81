package io.stockguard.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.testing.Ids;
import io.stockguard.testing.LedgerChecks;
import io.stockguard.testing.RunningService;
import io.stockguard.testing.StockGuardClient;
import io.stockguard.testing.StockGuardClient.Line;
import io.stockguard.testkit.KafkaCluster;
import io.stockguard.testkit.RedisServer;
import io.stockguard.testkit.TestDatabase;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The bulk catalogue on the Redis tiers: new SKUs are created by the database and then loaded by
 * the preheat the import starts; a line that changes a SKU the hot store sells goes to the hot
 * store (never behind its back), and the database ends with the same books once the journal is
 * applied.
 */
class CatalogueImportHotTiersIT {

    private static final int NEW_SKUS = 300;

    @ParameterizedTest(name = "kafka journal: {0}")
    @ValueSource(booleans = {false, true})
    void importedSkusArePreheatedAndChangesToHotSkusGoThroughTheHotStore(boolean kafkaJournal) {
        try (KafkaCluster kafka = kafkaJournal ? KafkaCluster.start(1) : null;
                RedisServer redis = RedisServer.start();
                RunningService service = kafka == null ? RunningService.startRedis(redis.uri(), false)
                        : RunningService.startFull(TestDatabase.fresh(TestDatabase.Kind.POSTGRESQL), redis.uri(),
                                kafka.bootstrapServers(), Map.of())) {
            StockGuardClient client = service.client();
            String prefix = Ids.sku("hot-imp") + "-";
            String hot = prefix + "hot";
            assertThat(client.putSku(hot, 10, 2).status()).isEqualTo(201);
            assertThat(client.reserve(Ids.order("hot-imp"), new Line(hot, 2)).status()).isEqualTo(201);
            assertThat(owner(service, hot)).isEqualTo("HOT");

            StringBuilder csv = new StringBuilder("sku,total,buckets\n");
            for (int i = 0; i < NEW_SKUS; i++) {
                csv.append(prefix).append(i).append(',').append(10 + i % 7).append(",2\n");
            }
            csv.append(hot).append(",50,\n");
            csv.append(hot).append(",1,\n");
            JsonNode job = service.admin().importCatalogue(csv.toString(), "text/csv");
            assertThat(job.get("state").asString()).isEqualTo("DONE");
            assertThat(job.get("created").asLong()).isEqualTo(NEW_SKUS);
            assertThat(job.get("updated").asLong()).isEqualTo(1);
            assertThat(job.get("failed").asLong()).isEqualTo(1);
            assertThat(job.get("errors").get(0).get("code").asString()).isEqualTo("INSUFFICIENT_STOCK");
            assertThat(job.get("preheat").asString()).isEqualTo("STARTED");

            service.awaitPreheatDone();
            for (int i = 0; i < NEW_SKUS; i += 37) {
                assertThat(owner(service, prefix + i)).as("SKU %d after the preheat", i).isEqualTo("HOT");
                assertThat(client.reserve(Ids.order("hot-imp"), new Line(prefix + i, 1)).status()).isEqualTo(201);
            }
            StockGuardClient.Response stock = client.sku(hot);
            assertThat(stock.number("total")).isEqualTo(50);
            assertThat(stock.number("reserved")).isEqualTo(2);

            service.awaitJournalApplied(hot, prefix + 0, prefix + 37);
            assertThat(LedgerChecks.totals(service.jdbc(), hot).total()).isEqualTo(50);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), hot);
            LedgerChecks.assertCountersMatchJournal(service.jdbc(), prefix + 37);

            JsonNode again = service.admin().importCatalogue(csv.toString(), "text/csv");
            assertThat(again.get("created").asLong() + again.get("updated").asLong()).isZero();
            assertThat(again.get("unchanged").asLong()).isEqualTo(NEW_SKUS + 1);
            assertThat(again.get("preheat").isNull()).isTrue();

            // Read from Redis at once, journal applied or not: fed back, the export undoes nothing.
            assertThat(client.restock(hot, 7).status()).isEqualTo(200);
            String export = service.admin().send("GET", "/api/v1/admin/skus:export", null).raw().body();
            assertThat(export).contains("\n" + hot + ",57,2,0,,0\n");
            JsonNode roundTrip = service.admin().importCatalogue(export, "text/csv");
            assertThat(roundTrip.get("unchanged").asLong()).isEqualTo(export.lines().count() - 1);
            assertThat(roundTrip.get("updated").asLong() + roundTrip.get("failed").asLong()).isZero();
            assertThat(client.sku(hot).number("total")).isEqualTo(57);
        }
    }

    private static String owner(RunningService service, String sku) {
        return service.jdbc().queryForObject("SELECT owner FROM sku WHERE sku_id = ?", String.class, sku);
    }
}
