package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.stockguard.journal.EventIds;
import io.stockguard.platform.Caller;
import io.stockguard.reservation.ReserveCommand;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import io.stockguard.stock.StockLine;
import io.stockguard.testing.HotStoreChecks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What requests that went away leave behind in Redis, written as the scripts would have. */
final class DeadRequests {

    private DeadRequests() {
    }

    /**
     * What a reservation request that went away half-way leaves: its order record opening (made
     * long ago, or given up on), the lines of {@code reservedSkus} reserved in Redis and not
     * journaled, nothing of the others. The SKUs must be loaded in Redis already.
     *
     * @param changedAt when its changes were made (the outbox sweeper takes them once old enough)
     */
    static void leftHalfWay(HotStoreChecks hot, String redisUri, String order, List<StockLine> asked,
            List<String> reservedSkus, long changedAt, boolean gaveUp) {
        ReserveCommand command = new ReserveCommand(OrderId.of(order), asked, Duration.ofMinutes(15), false,
                Caller.SYSTEM);
        long stale = System.currentTimeMillis() - 120_000;
        // As a request does it: the record opened first, touched now (a sweeper that meets a line
        // finds its order in progress), then the lines, then the request goes away.
        hot.writeOrderRecord(order, Map.of("st", "OPENING", "fp", command.fingerprint(),
                "ln", asked.stream().map(l -> l.skuId().value() + "|" + l.qty()).reduce((a, b) -> a + ";" + b)
                        .orElseThrow(), "c", Long.toString(stale), "e", Long.toString(stale + 900_000), "t", "",
                "u", Long.toString(System.currentTimeMillis())));
        try (RedisGateway gateway = new RedisGateway(ScriptFixture.properties(redisUri),
                CircuitBreaker.ofDefaults("test"))) {
            for (String sku : reservedSkus) {
                String epoch = hot.redis().hget("sg:{" + sku + "}:m", "epoch");
                int qty = asked.stream().filter(l -> l.skuId().value().equals(sku)).findFirst().orElseThrow().qty();
                List<String> arguments = new ArrayList<>(List.of(order, Integer.toString(qty), "0", "0",
                        Long.toString(changedAt), Long.toString(changedAt + 900_000), command.fingerprint(), "",
                        "test", "3600", "100000", epoch, "", ""));
                for (int i = 0; i < 8; i++) {
                    arguments.add(EventIds.next());
                }
                Reply reserved = new Reply(gateway.run(Script.RESERVE, Keys.reserveKeys(SkuId.of(sku),
                        OrderId.of(order)), arguments));
                assertThat(reserved.status()).isEqualTo("OK");
            }
        }
        hot.redis().hset("sg:{o:" + order + "}", gaveUp ? Map.of("g", "1") : Map.of("u", Long.toString(stale)));
    }
}
