package io.stockguard.journal.jdbc;

import io.stockguard.platform.SqlStatements;
import java.util.HashMap;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The appended journal's two marks as {@code journal_mark} holds them: the last entry's number
 * and the last applied. Read without a lock: the appended mark moves in the append's own commit,
 * so whatever it shows is committed.
 */
record JournalMarks(long appended, long applied) {

    static JournalMarks read(JdbcTemplate jdbc, SqlStatements sql) {
        Map<String, Long> marks = new HashMap<>();
        jdbc.query(sql.get("marks"), rs -> {
            marks.put(rs.getString("name"), rs.getLong("seq"));
        });
        return new JournalMarks(marks.getOrDefault("appended", 0L), marks.getOrDefault("applied", 0L));
    }

    /** Entries appended and not yet applied. */
    long backlog() {
        return Math.max(0, appended - applied);
    }
}
