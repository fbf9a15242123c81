package io.stockguard.platform;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.SqlTypeValue;
import org.springframework.jdbc.core.StatementCreatorUtils;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterUtils;
import org.springframework.jdbc.core.namedparam.ParsedSql;

/**
 * Queries sent to the database together. On PostgreSQL they go in one round trip (the driver sends
 * the statements of one prepared statement back to back and waits once); elsewhere one after
 * another. Either way the server runs them in the order they were added, in the caller's
 * transaction, so locks are taken in that order, exactly as if each were sent alone.
 *
 * <p>Why: a journal batch reads half a dozen tables before it decides; each read alone is a round
 * trip that, on a busy two-core host, costs more than the query itself.
 */
public final class QueryPipeline {

    /** More than this many queries in one trip is a bug in the caller, not a workload. */
    private static final int QUERIES_MAX = 32;

    private record Query(String sql, List<Object> arguments, RowCallbackHandler rows) {
    }

    private final JdbcTemplate jdbc;
    private final boolean oneTrip;
    private final List<Query> queries = new ArrayList<>();

    public QueryPipeline(JdbcTemplate jdbc, SqlDialect dialect) {
        this(jdbc, dialect == SqlDialect.POSTGRESQL);
    }

    private QueryPipeline(JdbcTemplate jdbc, boolean oneTrip) {
        this.jdbc = jdbc;
        this.oneTrip = oneTrip;
    }

    /** A pipeline that sends its queries one by one, for a caller that reads one thing on its own. */
    public static QueryPipeline oneByOne(JdbcTemplate jdbc) {
        return new QueryPipeline(jdbc, false);
    }

    /**
     * Adds a query with named parameters (a collection parameter expands to a list of values, as
     * with {@code NamedParameterJdbcTemplate}); its rows go to {@code rows} when the pipeline runs.
     */
    public QueryPipeline add(String namedSql, Map<String, ?> parameters, RowCallbackHandler rows) {
        if (queries.size() >= QUERIES_MAX) {
            throw new IllegalStateException("a pipeline takes at most " + QUERIES_MAX + " queries");
        }
        ParsedSql parsed = NamedParameterUtils.parseSqlStatement(namedSql);
        MapSqlParameterSource source = new MapSqlParameterSource(parameters);
        List<Object> arguments = new ArrayList<>();
        for (Object value : NamedParameterUtils.buildValueArray(parsed, source, null)) {
            if (value instanceof Collection<?> values) {
                arguments.addAll(values);
            } else {
                arguments.add(value);
            }
        }
        queries.add(new Query(NamedParameterUtils.substituteNamedParameters(parsed, source), arguments, rows));
        return this;
    }

    /** Runs the queries added so far, in order, and forgets them. */
    public void run() {
        List<Query> sending = List.copyOf(queries);
        queries.clear();
        if (sending.isEmpty()) {
            return;
        }
        if (!oneTrip || sending.size() == 1) {
            sending.forEach(q -> jdbc.query(q.sql(), q.rows(), q.arguments().toArray()));
            return;
        }
        String all = sending.stream().map(Query::sql).collect(Collectors.joining(";\n"));
        jdbc.execute(all, (PreparedStatement statement) -> {
            int index = 1;
            for (Query query : sending) {
                for (Object argument : query.arguments()) {
                    StatementCreatorUtils.setParameterValue(statement, index++, SqlTypeValue.TYPE_UNKNOWN, argument);
                }
            }
            boolean hasRows = statement.execute();
            for (Query query : sending) {
                if (!hasRows) {
                    throw new IllegalStateException("a pipelined query returned no rows: " + query.sql());
                }
                try (ResultSet rows = statement.getResultSet()) {
                    while (rows.next()) {
                        query.rows().processRow(rows);
                    }
                }
                hasRows = statement.getMoreResults();
            }
            return null;
        });
    }
}
