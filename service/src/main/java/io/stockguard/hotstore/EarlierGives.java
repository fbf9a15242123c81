package io.stockguard.hotstore;

import io.stockguard.journal.StockEvent;
import io.stockguard.stock.SkuId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The gives a set of changes was made after and that were not journaled yet (a cancel, an expiry,
 * a restock or a transfer whose request has not journaled it, or died first), read back from the
 * SKUs' outboxes as changes of their own, oldest first. They are journaled ahead of the changes, so
 * that a sale is never durable before the stock it took was: if that give were lost with a
 * failover, the sale would never fit the database. Entries gone meanwhile were journaled by their
 * own request.
 */
final class EarlierGives {

    /** Stream entry ids ("millis-sequence") in the stream's order. */
    private static final Comparator<String> STREAM_ORDER = Comparator.comparingLong((String id) -> part(id, 0))
            .thenComparingLong(id -> part(id, 1));

    private EarlierGives() {
    }

    static List<HotLines.Change> before(RedisGateway redis, List<HotLines.Change> changes) {
        Set<String> own = new HashSet<>();
        changes.forEach(change -> own.addAll(change.entryIds()));
        Map<SkuId, Set<String>> wanted = new LinkedHashMap<>();
        for (HotLines.Change change : changes) {
            change.givesBefore().stream().filter(id -> !own.contains(id))
                    .forEach(id -> wanted.computeIfAbsent(change.skuId(), k -> new TreeSet<>(STREAM_ORDER)).add(id));
        }
        List<HotLines.Change> earlier = new ArrayList<>();
        wanted.forEach((sku, ids) -> {
            List<String> found = new ArrayList<>();
            List<StockEvent> events = new ArrayList<>();
            for (var message : redis.outboxEntries(Keys.outbox(sku), List.copyOf(ids))) {
                found.add(message.getId());
                events.add(OutboxEvents.toEvent(message.getBody()));
            }
            if (!found.isEmpty()) {
                earlier.add(new HotLines.Change(sku, -1, found, events));
            }
        });
        return earlier;
    }

    private static long part(String entryId, int which) {
        int dash = entryId.indexOf('-');
        return Long.parseLong(which == 0 ? entryId.substring(0, dash) : entryId.substring(dash + 1));
    }
}
