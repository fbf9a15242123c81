package io.stockguard.ledger;

import io.stockguard.journal.AppendFence;
import io.stockguard.journal.EventOutcome;
import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.platform.QueryPipeline;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.reservation.Ownership;
import io.stockguard.stock.OrderId;
import io.stockguard.stock.SkuId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The appended journal's fence, by the rule the applier keeps ({@link OwnerFence}, with the journal
 * not yet acknowledged): a change of a hot store whose epoch no longer owns the SKU is refused, and
 * so is the rest of its order, recorded as an anomaly as the applier records it. Ownership is read
 * without a lock: the appender holds the journal's numbering lock, which a take-over takes too, so
 * what it reads cannot change before it commits. Known orders are read by key in the same trip.
 */
final class JdbcAppendFence implements AppendFence {

    private final SqlStatements sql;
    private final SqlDialect dialect;
    private final AppliedRows rows;

    JdbcAppendFence(SqlStatements sql, SqlDialect dialect, AppliedRows rows) {
        this.sql = sql;
        this.dialect = dialect;
        this.rows = rows;
    }

    @Override
    public Check read(QueryPipeline reads, List<StockEvent> events) {
        Set<String> skus = new TreeSet<>();
        events.stream().filter(e -> e.epoch() != null).forEach(e -> skus.add(e.skuId().value()));
        Set<String> reserved = new TreeSet<>();
        events.stream().filter(e -> e.op() == StockOp.RESERVE && e.orderId() != null)
                .forEach(e -> reserved.add(e.orderId().value()));
        Map<SkuId, Ownership> owners = new HashMap<>();
        Set<OrderId> known = new HashSet<>();
        if (!skus.isEmpty()) {
            reads.add(sql.get("ownerships"), Map.of("skuIds", skus), rs -> {
                owners.put(SkuId.of(rs.getString("sku_id")), Ownership.of(rs.getString("owner"),
                        rs.getLong("hot_epoch"), Timestamps.fromDatabase(rs, "owner_since", dialect)));
            });
        }
        if (!reserved.isEmpty()) {
            reads.add(sql.get("existingOrders"), Map.of("orderIds", reserved), rs -> {
                known.add(OrderId.of(rs.getString("order_id")));
            });
        }
        return new Check() {
            @Override
            public List<EventOutcome.Rejected> refusals() {
                return judge(events, owners);
            }

            @Override
            public Set<OrderId> knownOrders() {
                return known;
            }
        };
    }

    private List<EventOutcome.Rejected> judge(List<StockEvent> events, Map<SkuId, Ownership> owners) {
        OwnerFence fence = new OwnerFence(owners, false);
        fence.fence(events);
        List<EventOutcome.Rejected> refusals = new ArrayList<>(events.size());
        List<Anomaly> anomalies = new ArrayList<>();
        for (StockEvent event : events) {
            refusals.add(switch (fence.judge(event)) {
                case Verdict.Refuse refuse -> {
                    // Recorded as the applier records it: a hot store selling on a view that is behind.
                    anomalies.add(new Anomaly(Instant.now(), refuse.reason().name(), event.skuId(), event.bucket(),
                            event.eventId(), event.op() + " " + refuse.detail()));
                    yield new EventOutcome.Rejected(refuse.reason(), refuse.detail());
                }
                case Verdict.Answer answer when answer.outcome() instanceof EventOutcome.Rejected rejected -> rejected;
                default -> null;
            });
        }
        if (!anomalies.isEmpty()) {
            rows.insertAnomalies(anomalies);
        }
        return refusals;
    }
}
