package io.stockguard.audit.jdbc;

import io.stockguard.audit.AuditEntry;
import io.stockguard.audit.AuditLog;
import io.stockguard.audit.AuditQuery;
import io.stockguard.platform.Actor;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import io.stockguard.platform.TraceId;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

@Component
class JdbcAuditLog implements AuditLog {

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final SqlStatements sql;
    private final JsonMapper json;
    private final Clock clock;

    JdbcAuditLog(JdbcTemplate jdbc, SqlDialect dialect, JsonMapper json, Clock clock) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.sql = SqlStatements.load("audit", dialect);
        this.json = json;
        this.clock = clock;
    }

    @Override
    @Transactional(propagation = Propagation.MANDATORY)
    public void record(Actor actor, String action, String target, String reason, Object before, Object after,
            TraceId traceId) {
        jdbc.update(sql.get("insert"), Timestamps.parameter(clock.instant(), dialect), actor.toString(), action,
                target, Timestamps.varchar(reason), Timestamps.varchar(toJson(before)),
                Timestamps.varchar(toJson(after)), Timestamps.varchar(traceId == null ? null : traceId.value()));
    }

    @Override
    public List<AuditEntry> find(AuditQuery query) {
        return jdbc.query(sql.get("find"), ps -> bind(ps, query), (rs, row) -> new AuditEntry(
                rs.getLong("id"), Timestamps.fromDatabase(rs, "at", dialect), rs.getString("actor"),
                rs.getString("action"), rs.getString("target"), rs.getString("reason"),
                rs.getString("before_state"), rs.getString("after_state"), rs.getString("trace_id")));
    }

    private void bind(PreparedStatement ps, AuditQuery query) throws SQLException {
        int i = 1;
        for (String value : new String[] {query.target(), query.actor(), query.action()}) {
            ps.setObject(i++, value, Types.VARCHAR);
            ps.setObject(i++, value, Types.VARCHAR);
        }
        for (var instant : new java.time.Instant[] {query.from(), query.to()}) {
            Object value = Timestamps.toDatabase(instant, dialect);
            int type = dialect == SqlDialect.POSTGRESQL ? Types.TIMESTAMP_WITH_TIMEZONE : Types.TIMESTAMP;
            ps.setObject(i++, value, type);
            ps.setObject(i++, value, type);
        }
        ps.setInt(i, query.limit());
    }

    private String toJson(Object value) {
        return value == null ? null : json.writeValueAsString(value);
    }
}
