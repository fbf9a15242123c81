package io.stockguard.platform;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.springframework.jdbc.core.SqlParameterValue;

/**
 * Instants to and from the database, always in UTC. PostgreSQL stores TIMESTAMPTZ; MySQL and
 * MariaDB store DATETIME, which has no zone, so the UTC wall time is written and read as such,
 * independent of the server's and the JVM's time zone.
 */
public final class Timestamps {

    private Timestamps() {
    }

    public static Object toDatabase(Instant instant, SqlDialect dialect) {
        if (instant == null) {
            return null;
        }
        return switch (dialect) {
            case POSTGRESQL -> instant.atOffset(ZoneOffset.UTC);
            case MYSQL -> LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        };
    }

    /**
     * The instant as a typed statement parameter. A typed null needs no metadata round trip to the
     * server, which the JDBC template would otherwise make to learn the column type.
     */
    public static SqlParameterValue parameter(Instant instant, SqlDialect dialect) {
        int type = dialect == SqlDialect.POSTGRESQL ? Types.TIMESTAMP_WITH_TIMEZONE : Types.TIMESTAMP;
        return new SqlParameterValue(type, toDatabase(instant, dialect));
    }

    /** A nullable string as a typed statement parameter (see {@link #parameter}). */
    public static SqlParameterValue varchar(String value) {
        return new SqlParameterValue(Types.VARCHAR, value);
    }

    public static Instant fromDatabase(ResultSet rs, String column, SqlDialect dialect) throws SQLException {
        return switch (dialect) {
            case POSTGRESQL -> {
                OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
                yield value == null ? null : value.toInstant();
            }
            case MYSQL -> {
                LocalDateTime value = rs.getObject(column, LocalDateTime.class);
                yield value == null ? null : value.toInstant(ZoneOffset.UTC);
            }
        };
    }
}
