package dev.cairn.store;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A projection database's JDBC URL, read once: its dialect and, for SQLite, the file it names.
 *
 * @param jdbc    the URL as given ({@code jdbc:sqlite:PATH} or {@code jdbc:postgresql://HOST:PORT/DB?user=U})
 * @param dialect the database it names
 */
public record DatabaseUrl(String jdbc, Dialect dialect) {
    private static final String SQLITE = "jdbc:sqlite:";

    /** The URL's dialect, or an error that says which URLs are understood. */
    public static DatabaseUrl parse(String jdbc) {
        return new DatabaseUrl(jdbc, Dialect.of(jdbc));
    }

    /** The URL of a SQLite database in {@code file}. */
    public static DatabaseUrl sqlite(Path file) {
        return parse(SQLITE + file);
    }

    /** The absolute path of the SQLite file this URL names; empty for PostgreSQL and for in-memory databases. */
    public Optional<Path> sqliteFile() {
        if (dialect != Dialect.SQLITE) {
            return Optional.empty();
        }
        String file = jdbc.substring(SQLITE.length());
        int query = file.indexOf('?');
        if (query >= 0) {
            file = file.substring(0, query);
        }
        if (file.startsWith("file:")) {
            file = file.substring("file:".length());
        }
        if (file.isEmpty() || file.equals(":memory:")) {
            return Optional.empty();
        }
        return Optional.of(Path.of(file).toAbsolutePath());
    }

    /** The URL with the value of a {@code password} parameter masked, for logs and messages. */
    @Override
    public String toString() {
        return jdbc.replaceAll("(?i)([?&;]password=)[^&;]*", "$1***");
    }
}
