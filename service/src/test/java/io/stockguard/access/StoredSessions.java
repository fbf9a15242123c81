package io.stockguard.access;

import io.stockguard.testing.ConsoleSession;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Console sessions as the database holds them, read and aged behind the service's back. The table
 * names are in capitals, as Spring Session spells them: MySQL needs it and PostgreSQL folds them.
 */
final class StoredSessions {

    /** The cookie Spring Session names a session with. */
    static final String COOKIE = "SESSION";

    private final JdbcTemplate jdbc;

    StoredSessions(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The id of the session a browser's cookie names (Spring Session sends it base64-encoded). */
    static String idOf(ConsoleSession browser) {
        String cookie = browser.cookie(COOKIE);
        if (cookie == null) {
            throw new IllegalStateException("the browser holds no " + COOKIE + " cookie");
        }
        return new String(Base64.getDecoder().decode(cookie), StandardCharsets.UTF_8);
    }

    /** Sessions nobody logged in to: what anonymous visitors would leave behind. */
    int anonymous() {
        return jdbc.queryForObject("SELECT COUNT(*) FROM CONSOLE_SESSION WHERE principal_name IS NULL", Integer.class);
    }

    boolean exists(String sessionId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM CONSOLE_SESSION WHERE session_id = ?", Integer.class,
                sessionId) == 1;
    }

    /** Attributes stored for the session's row, whatever its id is now. */
    int attributesOf(String primaryId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM CONSOLE_SESSION_ATTRIBUTES WHERE session_primary_id = ?",
                Integer.class, primaryId);
    }

    String primaryIdOf(String sessionId) {
        return jdbc.queryForObject("SELECT primary_id FROM CONSOLE_SESSION WHERE session_id = ?", String.class,
                sessionId);
    }

    Duration maxInactiveInterval(String sessionId) {
        return Duration.ofSeconds(jdbc.queryForObject(
                "SELECT max_inactive_interval FROM CONSOLE_SESSION WHERE session_id = ?", Integer.class, sessionId));
    }

    /** Moves the session's last request back by {@code idle}, as if nobody had used it since. */
    void idle(String sessionId, Duration idle) {
        int updated = jdbc.update("UPDATE CONSOLE_SESSION SET last_access_time = last_access_time - ?, "
                + "expiry_time = expiry_time - ? WHERE session_id = ?", idle.toMillis(), idle.toMillis(), sessionId);
        if (updated != 1) {
            throw new IllegalStateException("no stored session " + sessionId);
        }
    }
}
