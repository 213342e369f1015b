package dev.cairn.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A PostgreSQL replay: a schema of its own, whose projected tables replace the live ones in one transaction (the live
 * credentials stay where they are).
 */
final class PostgresReplayTarget extends ReplayTarget {
    /** The schema a PostgreSQL replay builds in. */
    static final String SCHEMA = "cairn_replay";

    private final String liveUrl;

    private PostgresReplayTarget(String liveUrl) {
        super(liveUrl + (liveUrl.contains("?") ? "&" : "?") + "currentSchema=" + SCHEMA);
        this.liveUrl = liveUrl;
    }

    static PostgresReplayTarget beside(String liveUrl) throws SQLException {
        try (Connection c = DriverManager.getConnection(liveUrl); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            s.execute("CREATE SCHEMA " + SCHEMA);
        }
        return new PostgresReplayTarget(liveUrl);
    }

    @Override
    void replaceLive() throws SQLException {
        try (Connection c = DriverManager.getConnection(liveUrl); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("SET LOCAL lock_timeout = '30s'");
            String schema;
            try (ResultSet rs = s.executeQuery("SELECT current_schema()")) {
                rs.next();
                schema = rs.getString(1);
            }
            for (String table : Database.PROJECTED_TABLES) {
                s.execute("DROP TABLE IF EXISTS " + schema + "." + table);
                s.execute("ALTER TABLE " + SCHEMA + "." + table + " SET SCHEMA " + schema);
            }
            s.execute("DROP SCHEMA " + SCHEMA + " CASCADE");
            c.commit();
        }
    }

    @Override
    void drop() throws SQLException {
        try (Connection c = DriverManager.getConnection(liveUrl); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        }
    }
}
