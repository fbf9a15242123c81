package io.stockguard.stocklevel.jdbc;

import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.stock.SkuId;
import io.stockguard.stocklevel.LevelChange;
import io.stockguard.stocklevel.StockLevel;
import io.stockguard.stocklevel.StockLevelEvent;
import io.stockguard.stocklevel.StockLevelStore;
import io.stockguard.stocklevel.Subscription;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/** The stock-level tables. */
@Component
class JdbcStockLevelStore implements StockLevelStore {

    private static final int ERROR_LENGTH_MAX = 500;

    private final JdbcTemplate jdbc;
    private final NamedParameterJdbcTemplate named;
    private final SqlDialect dialect;
    private final SqlStatements sql;
    private final TransactionTemplate transactions;

    JdbcStockLevelStore(JdbcTemplate jdbc, SqlDialect dialect, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.named = new NamedParameterJdbcTemplate(jdbc);
        this.dialect = dialect;
        this.sql = SqlStatements.load("stock_levels", dialect);
        this.transactions = transactions;
    }

    @Override
    public List<Subscription> subscriptions(int limit) {
        return jdbc.query(sql.get("subscriptions"), (rs, i) -> new Subscription(rs.getString("name"),
                rs.getString("url"), rs.getString("secret"), Timestamps.fromDatabase(rs, "created_at", dialect),
                rs.getString("created_by")), limit);
    }

    @Override
    public boolean subscribe(Subscription subscription) {
        try {
            return jdbc.update(sql.get("insertSubscription"), subscription.name(), subscription.url(),
                    subscription.secret(), Timestamps.parameter(subscription.createdAt(), dialect),
                    subscription.createdBy()) == 1;
        } catch (DuplicateKeyException taken) {
            return false;
        }
    }

    @Override
    public boolean unsubscribe(String name) {
        return jdbc.update(sql.get("deleteSubscription"), name) == 1;
    }

    @Override
    public long position() {
        List<Long> position = jdbc.queryForList(sql.get("watchPosition"), Long.class);
        if (!position.isEmpty()) {
            return position.getFirst();
        }
        // Watched from now on: the history before the first watch is not news.
        long end = jdbc.queryForObject(sql.get("lastEventId"), Long.class);
        try {
            jdbc.update(sql.get("createWatch"), end);
            return end;
        } catch (DuplicateKeyException anotherInstanceFirst) {
            return jdbc.queryForObject(sql.get("watchPosition"), Long.class);
        }
    }

    @Override
    public void movePosition(long to) {
        jdbc.update(sql.get("moveWatch"), to, to);
    }

    @Override
    public long journalEnd() {
        return jdbc.queryForObject(sql.get("lastEventId"), Long.class);
    }

    @Override
    public void resetPosition(long to) {
        jdbc.update(sql.get("resetWatch"), to);
    }

    @Override
    public List<Changed> changedSince(long after, int limit) {
        return jdbc.query(sql.get("changedSince"), (rs, i) -> new Changed(rs.getLong("id"),
                SkuId.of(rs.getString("sku_id")), rs.getString("trace_id")), after, limit);
    }

    @Override
    public Map<SkuId, Reported> levels(Collection<SkuId> skus) {
        Map<SkuId, Reported> levels = new HashMap<>();
        if (skus.isEmpty()) {
            return levels;
        }
        named.query(sql.get("levels"), Map.of("skuIds", skus.stream().map(SkuId::value).toList()), rs -> {
            levels.put(SkuId.of(rs.getString("sku_id")), new Reported(StockLevel.valueOf(rs.getString("level")),
                    rs.getLong("available"), Timestamps.fromDatabase(rs, "changed_at", dialect)));
        });
        return levels;
    }

    @Override
    public Map<SkuId, Stock> stock(Collection<SkuId> skus) {
        Map<SkuId, Stock> stock = new HashMap<>();
        if (skus.isEmpty()) {
            return stock;
        }
        named.query(sql.get("stockOf"), Map.of("skuIds", skus.stream().map(SkuId::value).toList()), rs -> {
            stock.put(SkuId.of(rs.getString("sku_id")), new Stock(rs.getLong("available"), rs.getLong("total"),
                    rs.getLong("low_stock_threshold")));
        });
        return stock;
    }

    @Override
    public void baseline(Map<SkuId, Long> availableBySku, StockLevel level, Instant at) {
        if (availableBySku.isEmpty()) {
            return;
        }
        List<Map.Entry<SkuId, Long>> rows = List.copyOf(availableBySku.entrySet());
        transactions.executeWithoutResult(status -> jdbc.batchUpdate(sql.get("insertLevelIfAbsent"), rows,
                rows.size(), (ps, row) -> {
                    ps.setString(1, row.getKey().value());
                    ps.setString(2, level.name());
                    ps.setLong(3, row.getValue());
                    ps.setObject(4, Timestamps.toDatabase(at, dialect));
                }));
    }

    @Override
    public boolean move(SkuId sku, StockLevel from, StockLevel to, long available, StockLevelEvent event,
            List<String> webhooks, Instant at) {
        return Boolean.TRUE.equals(transactions.execute(status -> {
            if (jdbc.update(sql.get("moveLevel"), to.name(), available, Timestamps.parameter(at, dialect),
                    sku.value(), from.name()) != 1) {
                return false;
            }
            if (event != null) {
                jdbc.update(sql.get("insertEvent"), event.eventId(), sku.value(), event.change().name(),
                        event.available(), event.total(), Timestamps.parameter(event.occurredAt(), dialect),
                        Timestamps.varchar(event.traceId()));
                for (String webhook : webhooks) {
                    jdbc.update(sql.get("insertDelivery"), event.eventId(), webhook, Timestamps.parameter(at, dialect));
                }
            }
            return true;
        }));
    }

    @Override
    public List<Due> due(Instant now, int limit) {
        return jdbc.query(sql.get("due"), (rs, i) -> new Due(event(rs), rs.getString("webhook"), rs.getInt("attempts")),
                Timestamps.parameter(now, dialect), limit);
    }

    @Override
    public void delivered(String eventId, String webhook, Instant at) {
        jdbc.update(sql.get("delivered"), Timestamps.parameter(at, dialect), eventId, webhook);
    }

    @Override
    public void retryLater(String eventId, String webhook, Instant next, String error) {
        jdbc.update(sql.get("retryLater"), Timestamps.parameter(next, dialect), clip(error), eventId, webhook);
    }

    @Override
    public void giveUp(String eventId, String webhook, Instant at, String error) {
        jdbc.update(sql.get("giveUp"), Timestamps.parameter(at, dialect), clip(error), eventId, webhook);
    }

    @Override
    public List<Recorded> recent(SkuId sku, int limit) {
        String id = sku == null ? "" : sku.value();
        return jdbc.query(sql.get("recentEvents"), (rs, i) -> new Recorded(event(rs), rs.getInt("delivered"),
                rs.getInt("pending"), rs.getInt("gave_up")), id, id, limit);
    }

    private StockLevelEvent event(ResultSet rs) throws SQLException {
        return new StockLevelEvent(rs.getString("event_id"), SkuId.of(rs.getString("sku_id")),
                LevelChange.valueOf(rs.getString("kind")), rs.getLong("available"), rs.getLong("total"),
                Timestamps.fromDatabase(rs, "occurred_at", dialect), rs.getString("trace_id"));
    }

    private static String clip(String error) {
        return error == null || error.length() <= ERROR_LENGTH_MAX ? error : error.substring(0, ERROR_LENGTH_MAX);
    }
}
