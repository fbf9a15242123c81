package io.stockguard.alerting.jdbc;

import io.stockguard.alerting.Alert;
import io.stockguard.alerting.AlertFeed;
import io.stockguard.alerting.AlertLevel;
import io.stockguard.alerting.AlertStore;
import io.stockguard.alerting.DeliveryStatus;
import io.stockguard.alerting.RaisedAlert;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/** Alerts as rows of {@code alert}, their deliveries as rows of {@code alert_delivery}. */
@Component
class JdbcAlertStore implements AlertStore {

    private static final int ERROR_LENGTH_MAX = 500;

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final SqlStatements sql;
    private final TransactionTemplate transactions;

    JdbcAlertStore(JdbcTemplate jdbc, SqlDialect dialect, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.sql = SqlStatements.load("alerts", dialect);
        this.transactions = transactions;
    }

    @Override
    public void insert(String alertId, Alert alert, Map<String, DeliveryStatus> deliveries, Instant at) {
        transactions.executeWithoutResult(status -> {
            jdbc.update(sql.get("insertAlert"), alertId, Timestamps.parameter(alert.at(), dialect),
                    alert.level().name(), alert.kind(), Timestamps.varchar(alert.skuId()), alert.title(),
                    alert.detail(), alert.dedupeKey());
            for (Map.Entry<String, DeliveryStatus> delivery : deliveries.entrySet()) {
                jdbc.update(sql.get("insertDelivery"), alertId, delivery.getKey(), delivery.getValue().name(),
                        Timestamps.parameter(at, dialect));
            }
        });
    }

    @Override
    public void countSuppressed(String alertId, Instant at) {
        jdbc.update(sql.get("countSuppressed"), Timestamps.parameter(at, dialect), alertId);
    }

    @Override
    public void updateDelivery(String alertId, String channel, DeliveryStatus status, int attempts, String lastError,
            Instant at) {
        String error = lastError == null || lastError.length() <= ERROR_LENGTH_MAX ? lastError
                : lastError.substring(0, ERROR_LENGTH_MAX - 1) + "…";
        jdbc.update(sql.get("updateDelivery"), status.name(), attempts, Timestamps.varchar(error),
                Timestamps.parameter(at, dialect), alertId, channel);
    }

    @Override
    public int deleteRaisedBefore(Instant cutoff, int batchSize) {
        return jdbc.update(sql.get("deleteRaisedBefore"), Timestamps.parameter(cutoff, dialect), batchSize);
    }

    @Override
    public List<RaisedAlert> recent(int limit) {
        if (limit < 1 || limit > AlertFeed.LIMIT_MAX) {
            throw new IllegalArgumentException("limit is 1 to " + AlertFeed.LIMIT_MAX + ", was " + limit);
        }
        Map<String, Row> rows = new LinkedHashMap<>();
        jdbc.query(sql.get("recent"), rs -> {
            Row row = rows.computeIfAbsent(rs.getString("id"), id -> alertRow(rs));
            if (rs.getString("channel") != null) {
                row.deliveries().add(new RaisedAlert.Delivery(rs.getString("channel"),
                        DeliveryStatus.valueOf(rs.getString("status")), rs.getInt("attempts"),
                        rs.getString("last_error"), Timestamps.fromDatabase(rs, "updated_at", dialect)));
            }
        }, limit);
        return rows.values().stream().map(Row::toAlert).toList();
    }

    private Row alertRow(ResultSet rs) {
        try {
            return new Row(rs.getString("id"), Timestamps.fromDatabase(rs, "raised_at", dialect),
                    AlertLevel.valueOf(rs.getString("level")), rs.getString("kind"), rs.getString("sku_id"),
                    rs.getString("title"), rs.getString("detail"), rs.getString("dedupe_key"),
                    rs.getInt("suppressed_count"), Timestamps.fromDatabase(rs, "last_suppressed_at", dialect),
                    new ArrayList<>());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read an alert row: " + e.getMessage(), e);
        }
    }

    private record Row(String id, Instant at, AlertLevel level, String kind, String skuId, String title, String detail,
            String dedupeKey, int suppressedCount, Instant lastSuppressedAt, List<RaisedAlert.Delivery> deliveries) {

        RaisedAlert toAlert() {
            return new RaisedAlert(id, at, level, kind, skuId, title, detail, dedupeKey, suppressedCount,
                    lastSuppressedAt, deliveries);
        }
    }
}
