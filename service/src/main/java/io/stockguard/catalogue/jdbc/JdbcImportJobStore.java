package io.stockguard.catalogue.jdbc;

import io.stockguard.catalogue.ImportJob;
import io.stockguard.catalogue.ImportJobStore;
import io.stockguard.catalogue.LineError;
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
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Import jobs as rows of {@code catalogue_import}; the failed lines kept as a JSON array. */
@Component
class JdbcImportJobStore implements ImportJobStore {

    private static final TypeReference<List<LineError>> ERRORS = new TypeReference<>() {
    };

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final SqlStatements sql;
    private final JsonMapper json;

    JdbcImportJobStore(JdbcTemplate jdbc, SqlDialect dialect, JsonMapper json) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.sql = SqlStatements.load("catalogue", dialect);
        this.json = json;
    }

    @Override
    public void start(String jobId, String format, String startedBy, long linesTotal, String traceId, Instant at) {
        Object time = Timestamps.parameter(at, dialect);
        jdbc.update(sql.get("startImport"), jobId, format, startedBy, time, time, linesTotal,
                Timestamps.varchar(traceId));
    }

    @Override
    public void progress(String jobId, ImportJob.Progress progress, Instant at) {
        jdbc.update(sql.get("importProgress"), progress.linesDone(), progress.created(), progress.updated(),
                progress.unchanged(), progress.failed(), json.writeValueAsString(progress.errors()),
                Timestamps.parameter(at, dialect), jobId);
    }

    @Override
    public void finish(String jobId, String state, ImportJob.Progress progress, String message, String preheat,
            Instant at) {
        Object time = Timestamps.parameter(at, dialect);
        jdbc.update(sql.get("finishImport"), state, progress.linesDone(), progress.created(), progress.updated(),
                progress.unchanged(), progress.failed(), json.writeValueAsString(progress.errors()),
                Timestamps.varchar(message), Timestamps.varchar(preheat), time, time, jobId);
    }

    @Override
    public Optional<ImportJob> find(String jobId) {
        return jdbc.query(sql.get("importJob"), (rs, i) -> job(rs), jobId).stream().findFirst();
    }

    @Override
    public List<ImportJob> recent(int limit) {
        return jdbc.query(sql.get("recentImports"), (rs, i) -> job(rs), limit);
    }

    private ImportJob job(ResultSet rs) throws SQLException {
        return new ImportJob(rs.getString("job_id"), rs.getString("state"), rs.getString("format"),
                rs.getString("started_by"), Timestamps.fromDatabase(rs, "started_at", dialect),
                Timestamps.fromDatabase(rs, "updated_at", dialect), Timestamps.fromDatabase(rs, "finished_at", dialect),
                rs.getLong("lines_total"), rs.getLong("lines_done"), rs.getLong("created"), rs.getLong("updated"),
                rs.getLong("unchanged"), rs.getLong("failed"), json.readValue(rs.getString("errors"), ERRORS),
                rs.getString("message"), rs.getString("preheat"), rs.getString("trace_id"));
    }
}
