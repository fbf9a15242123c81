package io.stockguard.journal.jdbc;

import io.stockguard.journal.DeadLetter;
import io.stockguard.journal.DeadLetters;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** Dead letters as rows of {@code dead_letter}. */
@Component
class JdbcDeadLetters implements DeadLetters {

    private static final int ERROR_LENGTH_MAX = 2_000;

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final SqlStatements sql;

    JdbcDeadLetters(JdbcTemplate jdbc, SqlDialect dialect) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.sql = SqlStatements.load("dead_letters", dialect);
    }

    @Override
    public void keep(String source, String eventId, String skuId, String payload, String error, int attempts,
            Instant failedAt) {
        String shortError = error == null ? "" : error.length() > ERROR_LENGTH_MAX
                ? error.substring(0, ERROR_LENGTH_MAX - 1) + "…" : error;
        jdbc.update(sql.get("insert"), source, eventId, skuId, payload, shortError, attempts,
                Timestamps.parameter(failedAt, dialect));
    }

    @Override
    public List<DeadLetter> list(boolean openOnly, int limit) {
        return jdbc.query(sql.get(openOnly ? "open" : "all"), this::row, limit);
    }

    @Override
    public Optional<DeadLetter> find(long id) {
        return jdbc.query(sql.get("find"), this::row, id).stream().findFirst();
    }

    @Override
    public long countOpen() {
        Long count = jdbc.queryForObject(sql.get("countOpen"), Long.class);
        return count == null ? 0 : count;
    }

    @Override
    public boolean markReplayed(long id, String by, Instant at) {
        return jdbc.update(sql.get("markReplayed"), Timestamps.parameter(at, dialect), by, id) == 1;
    }

    private DeadLetter row(ResultSet rs, int i) throws SQLException {
        return new DeadLetter(rs.getLong("id"), rs.getString("source"), rs.getString("event_id"),
                rs.getString("sku_id"), rs.getString("payload"), rs.getString("error"), rs.getInt("attempts"),
                Timestamps.fromDatabase(rs, "failed_at", dialect), Timestamps.fromDatabase(rs, "replayed_at", dialect),
                rs.getString("replayed_by"));
    }
}
