package io.stockguard.access;

import io.stockguard.platform.SqlDialect;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.session.config.SessionRepositoryCustomizer;
import org.springframework.session.jdbc.JdbcIndexedSessionRepository;
import org.springframework.session.jdbc.MySqlJdbcIndexedSessionRepositoryCustomizer;
import org.springframework.session.jdbc.PostgreSqlJdbcIndexedSessionRepositoryCustomizer;

/**
 * Console sessions live in the database (Spring Session JDBC), so every instance serves every
 * logged-in person: no sticky sessions behind a load balancer, and a logout or a timeout on one
 * instance ends the session on all of them. Spring Boot configures Spring Session; this fixes what
 * must agree with the rest of StockGuard rather than be set per deployment.
 */
@Configuration(proxyBeanMethods = false)
class ConsoleSessions {

    /**
     * The table the migrations create (V9). Spring Session adds {@code _ATTRIBUTES} for the table
     * of attributes; both are spelled in capitals because MySQL on Linux tells case apart.
     */
    static final String TABLE = "CONSOLE_SESSION";

    /**
     * Runs after Spring Boot's own customizer (which has the highest precedence), so that
     * {@code spring.session.*} settings cannot point the sessions at a table the migrations do not
     * create or give them a lifetime other than the people's session timeout.
     */
    @Bean
    SessionRepositoryCustomizer<JdbcIndexedSessionRepository> consoleSessionRepository(PeopleProperties people,
            SqlDialect dialect) {
        return sessions -> {
            sessions.setTableName(TABLE);
            // Every session, the one a login form is served in too: it becomes the logged-in one.
            sessions.setDefaultMaxInactiveInterval(people.sessionTimeout());
            // ConsoleSessionSweeper deletes expired sessions, in batches, on the shared scheduler.
            sessions.setCleanupCron(Scheduled.CRON_DISABLED);
            sessions.setConversionService(SessionAttributeCodec.conversions(ConsoleSessions.class.getClassLoader()));
            // Two requests of one session may both add an attribute (a CSRF token, say): an upsert,
            // where the plain insert would fail the second with a duplicate key.
            switch (dialect) {
                case POSTGRESQL -> new PostgreSqlJdbcIndexedSessionRepositoryCustomizer().customize(sessions);
                case MYSQL -> new MySqlJdbcIndexedSessionRepositoryCustomizer().customize(sessions);
            }
        };
    }

    @Bean
    ConsoleSessionSweeper consoleSessionSweeper(JdbcTemplate jdbc, SqlDialect dialect, TaskScheduler scheduler) {
        return new ConsoleSessionSweeper(jdbc, dialect, scheduler, Clock.systemUTC());
    }
}
