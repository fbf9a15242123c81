package io.stockguard.reconciliation.jdbc;

import io.stockguard.platform.DatabaseProperties;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.reconciliation.LedgerSide;
import io.stockguard.reconciliation.ReconciliationProperties;
import io.stockguard.stock.SkuId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** The database's side of reconciliation, over the ledger's tables. */
@Component
class JdbcLedgerSide implements LedgerSide {

    private final JdbcTemplate jdbc;
    private final JdbcTemplate ledgerCheck;
    private final SqlStatements sql;

    JdbcLedgerSide(JdbcTemplate jdbc, SqlDialect dialect, ReconciliationProperties settings,
            DatabaseProperties database) {
        this.jdbc = jdbc;
        // The driver gives a connection up when the database says nothing for the socket timeout:
        // a ledger check allowed longer would be cut off as if the database were gone.
        if (settings.ledgerCheckTimeout().plus(DatabaseProperties.CANCEL_ANSWER_MIN)
                .compareTo(database.socketTimeout()) > 0) {
            throw new IllegalStateException("stockguard.reconciliation.ledger-check-timeout ("
                    + settings.ledgerCheckTimeout() + ") must be at least " + DatabaseProperties.CANCEL_ANSWER_MIN
                    .toSeconds() + "s shorter than stockguard.database.socket-timeout (" + database.socketTimeout()
                    + "); raise the socket timeout with it");
        }
        // The ledger check sums a SKU's whole journal: its own time limit keeps one very long
        // history from holding the probe (and a database connection) for long.
        this.ledgerCheck = new JdbcTemplate(jdbc.getDataSource());
        this.ledgerCheck.setQueryTimeout((int) Math.max(1, settings.ledgerCheckTimeout().toSeconds()));
        this.sql = SqlStatements.load("reconciliation", dialect);
    }

    @Override
    public Optional<SkuState> state(SkuId sku) {
        List<Bucket> buckets = new ArrayList<>();
        SkuState[] header = {null};
        jdbc.query(sql.get("state"), rs -> {
            if (header[0] == null) {
                header[0] = new SkuState(sku, rs.getString("mode"), rs.getString("mode_changed_by"),
                        rs.getLong("safety_stock"), rs.getLong("hot_epoch"), rs.getString("owner"), buckets);
            }
            buckets.add(new Bucket(rs.getInt("bucket"), rs.getLong("available"), rs.getLong("reserved"),
                    rs.getLong("sold"), rs.getLong("applied_sum"), rs.getLong("applied_epoch"), rs.getLong("applied_seq")));
        }, sku.value());
        return Optional.ofNullable(header[0]);
    }

    @Override
    public Optional<List<BucketMismatch>> ledgerMismatches(SkuId sku) {
        try {
            return Optional.of(ledgerCheck.query(sql.get("ledgerMismatches"), (rs, i) -> new BucketMismatch(
                    rs.getInt("bucket"), rs.getLong("available"), rs.getLong("reserved"), rs.getLong("sold")),
                    sku.value(), sku.value()));
        } catch (QueryTimeoutException e) {
            return Optional.empty();
        }
    }

    @Override
    public long openAnomalies(SkuId sku) {
        Long count = jdbc.queryForObject(sql.get("openAnomalies"), Long.class, sku.value());
        return count == null ? 0 : count;
    }

    @Override
    public long lastEventId() {
        Long id = jdbc.queryForObject(sql.get("lastEventId"), Long.class);
        return id == null ? 0 : id;
    }

    @Override
    public List<SkuId> busiest(long afterId, long upToId, int limit) {
        return jdbc.query(sql.get("busiest"), (rs, i) -> SkuId.of(rs.getString("sku_id")), afterId, upToId, limit);
    }

    @Override
    public List<SkuId> page(String afterSku, int limit) {
        return afterSku == null
                ? jdbc.query(sql.get("firstPage"), (rs, i) -> SkuId.of(rs.getString("sku_id")), limit)
                : jdbc.query(sql.get("page"), (rs, i) -> SkuId.of(rs.getString("sku_id")), afterSku, limit);
    }
}
