package io.stockguard.access.jdbc;

import io.stockguard.access.KeyKind;
import io.stockguard.access.KeyStore;
import io.stockguard.platform.SqlDialect;
import io.stockguard.platform.SqlStatements;
import io.stockguard.platform.Timestamps;
import java.time.Instant;
import java.util.List;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

@Component
class JdbcKeyStore implements KeyStore {

    private final JdbcTemplate jdbc;
    private final SqlDialect dialect;
    private final SqlStatements sql;

    JdbcKeyStore(JdbcTemplate jdbc, SqlDialect dialect) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.sql = SqlStatements.load("access", dialect);
    }

    @Override
    public List<StoredKey> all(int limit) {
        return jdbc.query(sql.get("keys"), (rs, row) -> new StoredKey(rs.getString("name"),
                KeyKind.valueOf(rs.getString("kind")), rs.getString("secret_hash"),
                Timestamps.fromDatabase(rs, "created_at", dialect), rs.getString("created_by"),
                Timestamps.fromDatabase(rs, "revoked_at", dialect), rs.getString("revoked_by")), limit);
    }

    @Override
    public long count() {
        Long count = jdbc.queryForObject(sql.get("countKeys"), Long.class);
        return count == null ? 0 : count;
    }

    @Override
    public boolean insert(String name, KeyKind kind, String secretHash, String createdBy, Instant at) {
        try {
            return jdbc.update(sql.get("insertKey"), name, kind.name(), secretHash, Timestamps.parameter(at, dialect),
                    createdBy) == 1;
        } catch (DuplicateKeyException e) {
            return false;
        }
    }

    @Override
    public boolean revoke(String name, String revokedBy, Instant at) {
        return jdbc.update(sql.get("revokeKey"), Timestamps.parameter(at, dialect), revokedBy, name) == 1;
    }
}
