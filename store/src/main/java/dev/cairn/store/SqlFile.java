package dev.cairn.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A resource file of named SQL statements, each introduced by a {@code -- name: NAME} line. Comment lines are
 * dropped; the text up to the next name is the statement.
 */
public final class SqlFile {
    private final String resource;
    private final Map<String, String> statements;

    private SqlFile(String resource, Map<String, String> statements) {
        this.resource = resource;
        this.statements = statements;
    }

    public static SqlFile load(String resource) {
        try (InputStream in = SqlFile.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("SQL resource " + resource + " is missing from the classpath");
            }
            Map<String, String> out = new LinkedHashMap<>();
            String name = null;
            StringBuilder sql = new StringBuilder();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String t = line.strip();
                if (t.startsWith("-- name:")) {
                    if (name != null) {
                        out.put(name, sql.toString().strip());
                    }
                    name = t.substring("-- name:".length()).strip();
                    sql.setLength(0);
                } else if (!t.startsWith("--") && name != null) {
                    int comment = line.indexOf(" -- ");
                    sql.append(comment >= 0 ? line.substring(0, comment) : line).append('\n');
                }
            }
            if (name != null) {
                out.put(name, sql.toString().strip());
            }
            return new SqlFile(resource, out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read SQL resource " + resource, e);
        }
    }

    /** This file's statements with {@code overrides}' added, and replacing any of the same name. */
    public SqlFile with(SqlFile overrides) {
        Map<String, String> merged = new LinkedHashMap<>(statements);
        merged.putAll(overrides.statements);
        return new SqlFile(overrides.resource + " over " + resource, merged);
    }

    public String get(String name) {
        String sql = statements.get(name);
        if (sql == null) {
            throw new IllegalArgumentException("no statement named '" + name + "' in " + resource);
        }
        return sql;
    }

    public Map<String, String> all() {
        return statements;
    }
}
