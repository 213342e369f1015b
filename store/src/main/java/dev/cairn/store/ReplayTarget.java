package dev.cairn.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Where {@code cairn replay} rebuilds the projection: an empty database beside the live one, which replaces the
 * live projection only once the rebuild has finished ({@link #swap()}), so the live tables stay whole and readable
 * until then, and a replay that fails or is interrupted leaves them as they were. SQLite: a new database file
 * (the live credentials are copied in), moved over the live file. PostgreSQL: a schema of its own, whose projected
 * tables replace the live ones in one transaction (the live credentials stay where they are).
 */
public final class ReplayTarget implements AutoCloseable {
    /** The schema a PostgreSQL replay builds in. */
    static final String SCHEMA = "cairn_replay";
    /** Every table the projector writes (the others, credential and schema_version, are not rebuilt from the log). */
    static final List<String> PROJECTED = List.of("statement", "filter_key", "statement_match", "statement_ref",
            "document", "activity", "agent_name", "attachment", "watermark");

    private final String liveUrl;
    private final String url;
    private final Dialect dialect;
    private boolean swapped;

    private ReplayTarget(String liveUrl, String url, Dialect dialect) {
        this.liveUrl = liveUrl;
        this.url = url;
        this.dialect = dialect;
    }

    /** Makes an empty place to rebuild the projection of the live database at {@code liveUrl} (which is not changed). */
    public static ReplayTarget create(String liveUrl) {
        Dialect dialect = Dialect.of(liveUrl);
        try {
            if (dialect == Dialect.SQLITE) {
                Path replay = replayFile(sqlitePath(liveUrl));
                deleteSqlite(replay);
                return new ReplayTarget(liveUrl, "jdbc:sqlite:" + replay, dialect);
            }
            try (Connection c = DriverManager.getConnection(liveUrl); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
                s.execute("CREATE SCHEMA " + SCHEMA);
            }
            return new ReplayTarget(liveUrl, liveUrl + (liveUrl.contains("?") ? "&" : "?") + "currentSchema=" + SCHEMA, dialect);
        } catch (SQLException | IOException e) {
            throw new StoreException("cannot prepare the replay beside " + liveUrl + ": " + e.getMessage(), e);
        }
    }

    /** The JDBC URL to open the database the replay writes into with. */
    public String url() {
        return url;
    }

    /**
     * Makes the rebuilt projection the live one. Every connection to the replay database must be closed, and no
     * other process may have the live database open (replay is run with Cairn stopped).
     */
    public void swap() {
        try {
            if (dialect == Dialect.SQLITE) {
                swapSqlite();
            } else {
                swapPostgres();
            }
            swapped = true;
        } catch (SQLException | IOException e) {
            throw new StoreException("cannot put the rebuilt projection in place of the live one (which is unchanged): "
                    + e.getMessage(), e);
        }
    }

    private void swapSqlite() throws SQLException, IOException {
        Path live = sqlitePath(liveUrl);
        Path replay = sqlitePath(url);
        if (Files.exists(live)) {
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.execute("ATTACH DATABASE '" + live.toString().replace("'", "''") + "' AS live");
                s.execute("INSERT INTO credential SELECT * FROM live.credential");
                s.execute("DETACH DATABASE live");
            }
        }
        // A write-ahead log left beside either file means a connection is still open: never move a file under it.
        for (Path p : List.of(wal(live), wal(replay))) {
            if (Files.exists(p)) {
                throw new IOException(p + " exists: a process still has the database open; stop every Cairn process"
                        + " on it and run the replay again");
            }
        }
        Files.deleteIfExists(shm(live));
        Files.deleteIfExists(shm(replay));
        Files.move(replay, live, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private void swapPostgres() throws SQLException {
        try (Connection c = DriverManager.getConnection(liveUrl); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("SET LOCAL lock_timeout = '30s'");
            String schema;
            try (ResultSet rs = s.executeQuery("SELECT current_schema()")) {
                rs.next();
                schema = rs.getString(1);
            }
            for (String table : PROJECTED) {
                s.execute("DROP TABLE IF EXISTS " + schema + "." + table);
                s.execute("ALTER TABLE " + SCHEMA + "." + table + " SET SCHEMA " + schema);
            }
            s.execute("DROP SCHEMA " + SCHEMA + " CASCADE");
            c.commit();
        }
    }

    /** Drops the replay database unless it was swapped in. */
    @Override
    public void close() {
        if (swapped) {
            return;
        }
        try {
            if (dialect == Dialect.SQLITE) {
                deleteSqlite(sqlitePath(url));
            } else {
                try (Connection c = DriverManager.getConnection(liveUrl); Statement s = c.createStatement()) {
                    s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
                }
            }
        } catch (SQLException | IOException e) {
            throw new StoreException("cannot remove the unfinished replay database: " + e.getMessage(), e);
        }
    }

    static Path sqlitePath(String url) {
        String file = url.substring("jdbc:sqlite:".length());
        int params = file.indexOf('?');
        return Path.of(params < 0 ? file : file.substring(0, params)).toAbsolutePath();
    }

    private static Path replayFile(Path live) {
        return live.resolveSibling(live.getFileName() + ".replay");
    }

    private static Path wal(Path db) {
        return db.resolveSibling(db.getFileName() + "-wal");
    }

    private static Path shm(Path db) {
        return db.resolveSibling(db.getFileName() + "-shm");
    }

    private static void deleteSqlite(Path db) throws IOException {
        Files.deleteIfExists(db);
        Files.deleteIfExists(wal(db));
        Files.deleteIfExists(shm(db));
    }
}
