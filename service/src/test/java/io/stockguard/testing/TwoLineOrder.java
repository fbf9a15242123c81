package io.stockguard.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.EventApplier;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvents;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.List;

/**
 * An order of two lines on two fresh SKUs of 10 units in one bucket each, 2 units of the first and
 * 3 of the second, reserved and applied to the database: for the tests of an order whose lines are
 * settled apart (one line's change reaches the database, the other's SKU changes hands).
 */
public record TwoLineOrder(String order, String first, String second) {

    /** Reserves it through the API and waits until the database has both lines. */
    public static TwoLineOrder reserved(RunningService service, String name) {
        StockGuardClient client = service.client();
        TwoLineOrder made = new TwoLineOrder(Ids.order(name), Ids.sku(name + "-first"), Ids.sku(name + "-second"));
        client.putSku(made.first, 10, 1);
        client.putSku(made.second, 10, 1);
        assertThat(client.reserve(made.order, new StockGuardClient.Line(made.first, 2),
                new StockGuardClient.Line(made.second, 3)).status()).isEqualTo(201);
        service.awaitJournalApplied(made.first, made.second);
        return made;
    }

    /** The first line's expiry, made by no hot store (no epoch), handed to the journal's applier now. */
    public List<EventOutcome> expireFirstLine(RunningService service, boolean strict) {
        return service.bean(EventApplier.class).apply(List.of(StockEvents.expire(OrderId.of(order),
                SkuId.of(first), 0, 2, new StockEvents.Context(null, "test", Instant.now()))), strict);
    }
}
