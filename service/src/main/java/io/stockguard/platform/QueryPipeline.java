package io.stockguard.platform;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * Statements sent to the database together: queries, whose rows go to their own handlers, and
 * changes, whose row counts are checked. On PostgreSQL they go in one round trip (the driver sends
 * the statements of one prepared statement back to back and waits once); elsewhere one after
 * another. Either way the server runs them in the order they were added, in the caller's
 * transaction, so locks are taken in that order, exactly as if each were sent alone.
 *
 * <p>Why: a journal batch reads half a dozen tables before it decides; each read alone is a round
 * trip that, on a busy two-core host, costs more than the query itself; and the standard tier's
 * append takes its numbers, reads its fence and writes its entries in one trip, which with a
 * database a millisecond away is most of a reservation's time.
 */
public final class QueryPipeline {

    /** More than this many queries in one trip is a bug in the caller, not a workload. */
    private static final int QUERIES_MAX = 32;

    /**
     * A statement: a query ({@code rows} takes its rows) or a change ({@code rows} is null and it
     * must change exactly {@code changed} rows).
     */
    private record Query(String sql, List<Object> arguments, RowCallbackHandler rows, int changed) {
    }

    /**
     * A parameter bound as an SQL array of {@code type} (the database's name of its element type,
     * such as {@code bytea}); PostgreSQL only.
     */
    public record SqlArray(String type, Object[] values) {
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
        return adding(namedSql, parameters, rows, 0);
    }

    /**
     * Adds a change (an insert, update or delete, named parameters as for {@link #add}) that must
     * change exactly {@code changed} rows: any other count fails the run with an
     * {@link IllegalStateException}, so the caller's transaction rolls back instead of going on
     * from a state it did not expect.
     */
    public QueryPipeline change(String namedSql, Map<String, ?> parameters, int changed) {
        if (changed < 0) {
            throw new IllegalArgumentException("a change changes zero rows or more, not " + changed);
        }
        return adding(namedSql, parameters, null, changed);
    }

    private QueryPipeline adding(String namedSql, Map<String, ?> parameters, RowCallbackHandler rows, int changed) {
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
        queries.add(new Query(NamedParameterUtils.substituteNamedParameters(parsed, source), arguments, rows, changed));
        return this;
    }

    /** Runs the statements added so far, in order, and forgets them. */
    public void run() {
        List<Query> sending = List.copyOf(queries);
        queries.clear();
        if (sending.isEmpty()) {
            return;
        }
        if (!oneTrip || sending.size() == 1) {
            sending.forEach(query -> jdbc.execute(query.sql(), (PreparedStatement statement) -> {
                bind(statement, 1, query);
                results(statement, List.of(query));
                return null;
            }));
            return;
        }
        String all = sending.stream().map(Query::sql).collect(Collectors.joining(";\n"));
        jdbc.execute(all, (PreparedStatement statement) -> {
            int index = 1;
            for (Query query : sending) {
                index = bind(statement, index, query);
            }
            results(statement, sending);
            return null;
        });
    }

    private static int bind(PreparedStatement statement, int from, Query query) throws SQLException {
        int index = from;
        for (Object argument : query.arguments()) {
            if (argument instanceof SqlArray array) {
                statement.setArray(index++, statement.getConnection().createArrayOf(array.type(), array.values()));
            } else {
                StatementCreatorUtils.setParameterValue(statement, index++, SqlTypeValue.TYPE_UNKNOWN, argument);
            }
        }
        return index;
    }

    /** Executes the statement and hands each of its results, in order, to the statement that made it. */
    private static void results(PreparedStatement statement, List<Query> sent) throws SQLException {
        boolean hasRows = statement.execute();
        for (Query query : sent) {
            if (query.rows() == null) {
                int count = hasRows ? -1 : statement.getUpdateCount();
                if (count != query.changed()) {
                    throw new IllegalStateException("a pipelined change was to change " + query.changed()
                            + " rows and " + (hasRows ? "returned rows" : "changed " + count) + ": " + query.sql());
                }
            } else {
                if (!hasRows) {
                    throw new IllegalStateException("a pipelined query returned no rows: " + query.sql());
                }
                try (ResultSet rows = statement.getResultSet()) {
                    while (rows.next()) {
                        query.rows().processRow(rows);
                    }
                }
            }
            hasRows = statement.getMoreResults();
        }
    }
}
