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
import java.util.ArrayList;
import java.util.List;

/**
 * A SQLite replay: a new database file beside the live one (the live tables that are not derived from the log, such
 * as credentials and forwarding targets, are copied in), moved over it.
 */
final class SqliteReplayTarget extends ReplayTarget {
    private final Path live;
    private final Path replay;

    private SqliteReplayTarget(Path live, Path replay) {
        super("jdbc:sqlite:" + replay);
        this.live = live;
        this.replay = replay;
    }

    static SqliteReplayTarget beside(String liveUrl) throws IOException {
        Path live = path(liveUrl);
        Path replay = live.resolveSibling(live.getFileName() + ".replay");
        delete(replay);
        return new SqliteReplayTarget(live, replay);
    }

    @Override
    void replaceLive() throws SQLException, IOException {
        if (Files.exists(live)) {
            try (Connection c = DriverManager.getConnection(url()); Statement s = c.createStatement()) {
                s.execute("ATTACH DATABASE '" + live.toString().replace("'", "''") + "' AS live");
                for (String table : keptTables(s)) {
                    s.execute("INSERT INTO main." + table + " SELECT * FROM live." + table);
                }
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

    /**
     * The live tables that are not derived from the log (credentials, forwarding targets with their cursors, dead
     * letters, and whatever a later migration adds): the rebuilt database takes their rows as they are.
     */
    private static List<String> keptTables(Statement s) throws SQLException {
        List<String> kept = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT name FROM live.sqlite_master WHERE type = 'table' AND name NOT LIKE"
                + " 'sqlite%' AND name <> 'schema_version' ORDER BY name")) {
            while (rs.next()) {
                String table = rs.getString(1);
                if (!Database.PROJECTED_TABLES.contains(table) && !table.startsWith("statement_match")) {
                    kept.add(table);
                }
            }
        }
        return kept;
    }

    @Override
    void drop() throws IOException {
        delete(replay);
    }

    private static Path path(String url) {
        String file = url.substring("jdbc:sqlite:".length());
        int params = file.indexOf('?');
        return Path.of(params < 0 ? file : file.substring(0, params)).toAbsolutePath();
    }

    private static Path wal(Path db) {
        return db.resolveSibling(db.getFileName() + "-wal");
    }

    private static Path shm(Path db) {
        return db.resolveSibling(db.getFileName() + "-shm");
    }

    private static void delete(Path db) throws IOException {
        Files.deleteIfExists(db);
        Files.deleteIfExists(wal(db));
        Files.deleteIfExists(shm(db));
    }
}
