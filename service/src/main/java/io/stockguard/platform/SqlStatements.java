package io.stockguard.platform;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.springframework.core.io.ClassPathResource;

/**
 * Named SQL statements read from {@code sql/<group>.sql}, with per-dialect overrides from
 * {@code sql/<dialect>/<group>.sql}. A statement starts at a line {@code -- name: <name>} and runs
 * to the next such line. Keeping SQL in files lets a reader review it as SQL, per database.
 */
public final class SqlStatements {

    private static final String NAME_MARKER = "-- name:";

    private final String group;
    private final Map<String, String> statements;

    private SqlStatements(String group, Map<String, String> statements) {
        this.group = group;
        this.statements = Map.copyOf(statements);
    }

    public static SqlStatements load(String group, SqlDialect dialect) {
        Map<String, String> statements = new HashMap<>(parse(read("sql/" + group + ".sql", true)));
        statements.putAll(parse(read("sql/" + dialect.folder() + "/" + group + ".sql", false)));
        return new SqlStatements(group, statements);
    }

    public String get(String name) {
        String sql = statements.get(name);
        if (sql == null) {
            throw new IllegalStateException("no SQL statement '" + name + "' in group '" + group + "'");
        }
        return sql;
    }

    private static String read(String path, boolean required) {
        ClassPathResource resource = new ClassPathResource(path);
        if (!resource.exists()) {
            if (required) {
                throw new IllegalStateException("missing SQL file " + path);
            }
            return "";
        }
        try (InputStream in = resource.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read SQL file " + path, e);
        }
    }

    static Map<String, String> parse(String text) {
        Map<String, String> statements = new HashMap<>();
        String name = null;
        StringBuilder body = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (line.startsWith(NAME_MARKER)) {
                put(statements, name, body);
                name = line.substring(NAME_MARKER.length()).trim();
                body.setLength(0);
            } else if (name != null && !line.trim().startsWith("--")) {
                body.append(line).append('\n');
            }
        }
        put(statements, name, body);
        return statements;
    }

    private static void put(Map<String, String> statements, String name, StringBuilder body) {
        if (name == null) {
            return;
        }
        String sql = body.toString().trim();
        if (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1).trim();
        }
        if (sql.isEmpty() || statements.putIfAbsent(name, sql) != null) {
            throw new IllegalStateException("SQL statement '" + name + "' is empty or defined twice");
        }
    }
}
