package io.stockguard.access.jdbc;

import io.stockguard.access.Person;
import io.stockguard.access.PersonRole;
import io.stockguard.access.PersonStore;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

@Component
class JdbcPersonStore implements PersonStore {

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final SqlStatements sql;

    JdbcPersonStore(JdbcTemplate jdbc, SqlDialect dialect) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.sql = SqlStatements.load("access", dialect);
    }

    @Override
    public List<StoredPerson> all(int limit) {
        return jdbc.query(sql.get("people"), this::row, limit);
    }

    @Override
    public Optional<StoredPerson> find(String name) {
        return jdbc.query(sql.get("person"), this::row, name).stream().findFirst();
    }

    @Override
    public long count() {
        Long count = jdbc.queryForObject(sql.get("countPeople"), Long.class);
        return count == null ? 0 : count;
    }

    @Override
    public boolean insert(String name, PersonRole role, String passwordHash, String createdBy, Instant at) {
        try {
            return jdbc.update(sql.get("insertPerson"), name, role.name(), passwordHash,
                    Timestamps.parameter(at, dialect), createdBy, Timestamps.parameter(at, dialect)) == 1;
        } catch (DuplicateKeyException e) {
            return false;
        }
    }

    @Override
    public boolean setRole(String name, PersonRole role, Instant at) {
        return jdbc.update(sql.get("setRole"), role.name(), Timestamps.parameter(at, dialect), name) == 1;
    }

    @Override
    public boolean setEnabled(String name, boolean enabled, Instant at) {
        return jdbc.update(sql.get("setEnabled"), enabled, Timestamps.parameter(at, dialect), name) == 1;
    }

    @Override
    public boolean setPasswordHash(String name, String passwordHash, Instant at) {
        return jdbc.update(sql.get("setPassword"), passwordHash, Timestamps.parameter(at, dialect), name) == 1;
    }

    private StoredPerson row(ResultSet rs, int row) throws SQLException {
        Person person = new Person(rs.getString("name"), PersonRole.valueOf(rs.getString("role")),
                rs.getBoolean("enabled"), Person.Source.CONSOLE, Timestamps.fromDatabase(rs, "created_at", dialect),
                rs.getString("created_by"), Timestamps.fromDatabase(rs, "updated_at", dialect));
        return new StoredPerson(person, rs.getString("password_hash"));
    }
}
