package io.stockguard.reconciliation.jdbc;

import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.reconciliation.DriftLevel;
import io.stockguard.reconciliation.Reading;
import io.stockguard.reconciliation.ReadingKind;
import io.stockguard.reconciliation.Readings;
import io.stockguard.stock.SkuId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** Drift readings as rows of {@code drift_reading}. */
@Component
class JdbcReadings implements Readings {

    private static final int DETAIL_LENGTH_MAX = 1_000;

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final SqlStatements sql;

    JdbcReadings(JdbcTemplate jdbc, SqlDialect dialect) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.sql = SqlStatements.load("reconciliation", dialect);
    }

    @Override
    public void add(Reading r) {
        String detail = r.detail().length() > DETAIL_LENGTH_MAX ? r.detail().substring(0, DETAIL_LENGTH_MAX - 1) + "…"
                : r.detail();
        jdbc.update(sql.get("addReading"), r.skuId().value(), Timestamps.parameter(r.measuredAt(), dialect),
                r.kind().name(), r.level().name(), r.units(), r.percent(), r.total(), r.inFlight(), detail);
    }

    @Override
    public List<Reading> newest(SkuId sku, int limit) {
        return jdbc.query(sql.get("newest"), this::reading, sku.value(), limit);
    }

    @Override
    public List<Reading> newestWrong(int limit) {
        return jdbc.query(sql.get("newestWrong"), this::reading, limit);
    }

    @Override
    public int prune(Instant before, int limit) {
        return jdbc.update(sql.get("prune"), Timestamps.parameter(before, dialect), limit);
    }

    private Reading reading(ResultSet rs, int row) throws SQLException {
        return new Reading(SkuId.of(rs.getString("sku_id")), Timestamps.fromDatabase(rs, "measured_at", dialect),
                ReadingKind.valueOf(rs.getString("kind")), DriftLevel.valueOf(rs.getString("level")),
                rs.getLong("drift_units"), rs.getDouble("drift_percent"), rs.getLong("total"), rs.getLong("in_flight"),
                rs.getString("detail"));
    }
}
